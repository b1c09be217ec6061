import { jwtVerify, SignJWT } from 'jose';
import { z } from 'zod';

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

const uuid = z.uuid().transform((v) => v.toLowerCase());

/** What a token must carry; a token signed with our secret but shaped otherwise is refused like a forged one. */
const Claims = z.object({
  business_id: uuid.nullable(),
  location_id: uuid.nullable(),
  user_id: uuid,
  sid: uuid,
  tv: z.number().int().min(0),
  iat: z.number(),
  exp: z.number(),
});

/** Returns the payload of a valid, unexpired token that has an expiry, or null for anything else. */
export async function verifyAccessToken(token: string, secret: Uint8Array): Promise<VerifiedToken | null> {
  try {
    const { payload } = await jwtVerify(token, secret, {
      algorithms: ['HS256'],
      requiredClaims: ['exp', 'iat'],
    });
    const claims = Claims.safeParse(payload);
    return claims.success ? claims.data : null;
  } catch {
    return null;
  }
}
