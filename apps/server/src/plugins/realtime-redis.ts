import { createAdapter } from '@socket.io/redis-adapter';
import type { FastifyInstance } from 'fastify';
import { createClient } from 'redis';
import type { RealtimeServer } from './realtime.ts';

/** With REDIS_URL, room broadcasts fan out through Redis so several app nodes serve one business. */
export async function attachRedisAdapter(
  app: FastifyInstance,
  io: RealtimeServer,
  url: string,
): Promise<void> {
  const pub = createClient({ url });
  const sub = pub.duplicate();
  pub.on('error', (err) => app.log.error({ err }, 'redis publisher error'));
  sub.on('error', (err) => app.log.error({ err }, 'redis subscriber error'));
  await Promise.all([pub.connect(), sub.connect()]);
  io.adapter(createAdapter(pub, sub));
  app.addHook('onClose', async () => {
    await Promise.allSettled([pub.quit(), sub.quit()]);
  });
}
