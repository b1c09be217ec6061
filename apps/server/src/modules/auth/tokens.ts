import { jwtVerify, SignJWT } from 'jose';

export type AccessTokenPayload = {
  business_id: string | null;
  location_id: string | null;
  user_id: string;
  /** Session id: logout revokes the session, and with it every token issued for it. */
  sid: string;
  /** The user's token version when issued: a password change bumps it and refuses older tokens. */
  tv: number;
};

export type VerifiedToken = AccessTokenPayload & { iat: number; exp: number };

export async function signAccessToken(
  payload: AccessTokenPayload,
  secret: Uint8Array,
  ttlSeconds: number,
): Promise<string> {
  return new SignJWT({ ...payload })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
    .sign(secret);
}

/** Returns the payload of a valid, unexpired token, or null for anything else. */
export async function verifyAccessToken(token: string, secret: Uint8Array): Promise<VerifiedToken | null> {
  try {
    const { payload } = await jwtVerify(token, secret, { algorithms: ['HS256'] });
    if (
      typeof payload.user_id !== 'string' ||
      typeof payload.sid !== 'string' ||
      typeof payload.tv !== 'number'
    ) {
      return null;
    }
    return payload as unknown as VerifiedToken;
  } catch {
    return null;
  }
}
