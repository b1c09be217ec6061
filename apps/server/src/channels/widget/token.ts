import { createHmac, timingSafeEqual } from 'node:crypto';

/** What a visitor token names: the location, the visitor (customers.external_ids.widget) and the session's details. */
export type VisitorClaims = {
  location_id: string;
  visitor_id: string;
  name?: string;
  phone?: string;
  email?: string;
  source?: string;
  medium?: string;
  campaign?: string;
  /** The page of the business's website the chat began on (no query string: it may carry personal data). */
  landing_page?: string;
  /** Issued at, seconds since the epoch. */
  iat: number;
};

const AUDIENCE = 'switchboard:widget-visitor:v1';
const MAX_AGE_SECONDS = 180 * 24 * 3600;

const mac = (key: Buffer, payload: string) =>
  createHmac('sha256', key).update(`${AUDIENCE}.${payload}`).digest('base64url');

/** `base64url(json).base64url(hmac)`: HMAC-SHA256 with the app's encryption key, bound to the widget audience. */
export function signVisitorToken(key: Buffer, claims: VisitorClaims): string {
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${payload}.${mac(key, payload)}`;
}

/** The claims of a genuine, unexpired token; null for anything else. */
export function verifyVisitorToken(key: Buffer, token: unknown): VisitorClaims | null {
  if (typeof token !== 'string' || token.length > 4096) return null;
  const [payload, signature, extra] = token.split('.');
  if (!payload || !signature || extra !== undefined) return null;
  const expected = Buffer.from(mac(key, payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as VisitorClaims;
    if (typeof claims.location_id !== 'string' || typeof claims.visitor_id !== 'string') return null;
    if (typeof claims.iat !== 'number' || Date.now() / 1000 - claims.iat > MAX_AGE_SECONDS) return null;
    return claims;
  } catch {
    return null;
  }
}
