import type { FastifyInstance } from 'fastify';
import { DEMO_LOGINS, DEMO_PASSWORD } from './helpers.ts';

/** Signs a demo user in through `app` (any built app, not only a TestApp) and answers the token. */
export async function signIn(app: FastifyInstance, email: string = DEMO_LOGINS.owner): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: { email, password: DEMO_PASSWORD },
  });
  if (res.statusCode !== 200) throw new Error(`signing in ${email} failed: ${res.statusCode} ${res.body}`);
  return res.json().body.token as string;
}

/** The demo owner signed in, with their selected business and its locations in the app's order. */
export async function demoOwner(
  app: FastifyInstance,
): Promise<{ token: string; business_id: string; locations: string[] }> {
  const token = await signIn(app);
  const me = await app.inject({
    method: 'GET',
    url: '/api/v1/user/me',
    headers: { authorization: `Bearer ${token}` },
  });
  const business = (
    me.json().body.businesses as { id: string; selected: boolean; locations: { id: string }[] }[]
  ).find((b) => b.selected);
  if (!business?.locations.length) throw new Error('the demo owner has no selected business with locations');
  return { token, business_id: business.id, locations: business.locations.map((l) => l.id) };
}

/** Connects a channel account at a location as the owner does in settings, and answers its id. */
export async function connectAccount(
  app: FastifyInstance,
  token: string,
  body: { location_id: string; provider: string; config: Record<string, unknown> },
): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/channels',
    headers: { authorization: `Bearer ${token}` },
    payload: body,
  });
  if (res.statusCode !== 200)
    throw new Error(`connecting ${body.provider} failed: ${res.statusCode} ${res.body}`);
  return res.json().body.id as string;
}
