import { createAdapter } from '@socket.io/redis-adapter';
import type { FastifyInstance } from 'fastify';
import { createClient } from 'redis';
import type { DomainEvents } from '../events/bus.ts';
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
  relayToPeers(app, io);
  app.addHook('onClose', async () => {
    await Promise.allSettled([pub.quit(), sub.quit()]);
  });
}

/** Events every node must hear, not only the one where they happened (each keeps caches they invalidate). */
const NODE_WIDE = ['channels.changed'] as const satisfies (keyof DomainEvents)[];
type NodeWide = (typeof NODE_WIDE)[number];

/** Passes node-wide events to the other nodes through Redis, and theirs to this node's listeners. */
function relayToPeers(app: FastifyInstance, io: RealtimeServer): void {
  let fromPeer = false;
  for (const name of NODE_WIDE) {
    app.events.on(name, (payload) => {
      if (!fromPeer) (io.serverSideEmit as (...args: unknown[]) => void)('domain-event', name, payload);
    });
  }
  (io.on as (event: string, listener: (...args: unknown[]) => void) => void)(
    'domain-event',
    (name, payload) => {
      if (!NODE_WIDE.includes(name as NodeWide)) return;
      fromPeer = true;
      try {
        app.events.emit(name as NodeWide, payload as DomainEvents[NodeWide][0]);
      } finally {
        fromPeer = false;
      }
    },
  );
}
