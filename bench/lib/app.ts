import { DEMO_LOGINS, DEMO_PASSWORD } from '@switchboard/db';
import type { FastifyInstance } from 'fastify';

/** The demo owner's token, from the app under measurement. */
export async function ownerToken(app: FastifyInstance): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: { email: DEMO_LOGINS.owner, password: DEMO_PASSWORD },
  });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  return (res.json() as { body: { token: string } }).body.token;
}
