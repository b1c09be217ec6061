import { createHmac, randomUUID } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';

/**
 * A browser that has signed in before carries a long-lived, HttpOnly cookie naming the user and the browser.
 * It does not sign anybody in: it only gives that browser its own allowance of login attempts, so a flood of
 * wrong passwords for one email from elsewhere cannot lock the real person out of their usual browser.
 */
export const DEVICE_COOKIE = 'sb_device';
export const DEVICE_COOKIE_PATH = '/api/v1/auth';
const DEVICE_DAYS = 365;
const UNLOCK_MINUTES = 30;

export type Device = { user_id: string; device_id: string };

/** One key per purpose, derived from the app's JWT secret: an access token is never a device token. */
const keyFor = (secret: Uint8Array, purpose: 'device' | 'unlock') =>
  new Uint8Array(createHmac('sha256', secret).update(`switchboard:${purpose}`).digest());

const sign = (claims: Record<string, string>, key: Uint8Array, seconds: number) =>
  new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + seconds)
    .sign(key);

async function read(token: string | undefined, key: Uint8Array): Promise<Record<string, unknown> | null> {
  if (!token || token.length > 2000) return null;
  try {
    const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], requiredClaims: ['exp'] });
    return payload;
  } catch {
    return null;
  }
}

export function deviceToken(secret: Uint8Array, device: Device): Promise<string> {
  return sign({ sub: device.user_id, did: device.device_id }, keyFor(secret, 'device'), DEVICE_DAYS * 86_400);
}

export async function readDevice(secret: Uint8Array, token: string | undefined): Promise<Device | null> {
  const claims = await read(token, keyFor(secret, 'device'));
  if (typeof claims?.sub !== 'string' || typeof claims.did !== 'string') return null;
  return { user_id: claims.sub, device_id: claims.did };
}

export const newDevice = (userId: string): Device => ({ user_id: userId, device_id: randomUUID() });

export const deviceCookieOptions = (secure: boolean) => ({
  path: DEVICE_COOKIE_PATH,
  httpOnly: true,
  secure,
  sameSite: 'lax' as const,
  maxAge: DEVICE_DAYS * 86_400,
});

/** The emailed link that lets the browser it is opened in sign in while the email's attempts are paused. */
export function unlockToken(secret: Uint8Array, userId: string): Promise<string> {
  return sign({ sub: userId }, keyFor(secret, 'unlock'), UNLOCK_MINUTES * 60);
}

export async function readUnlock(secret: Uint8Array, token: string | undefined): Promise<string | null> {
  const claims = await read(token, keyFor(secret, 'unlock'));
  return typeof claims?.sub === 'string' ? claims.sub : null;
}

export const UNLOCK_LINK_MINUTES = UNLOCK_MINUTES;
