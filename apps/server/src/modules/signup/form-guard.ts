import { createHmac } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import { AppError } from '../../errors.ts';

/**
 * Bot protection without a third-party captcha. The sign-up form asks for a signed form token when it opens;
 * a sign-up must bring it back no sooner than a person could have filled the form in (`minSeconds`) and
 * within a day, and must leave the hidden `website` field (a honeypot people never see) empty.
 */
const FORM_HOURS = 24;

const keyOf = (secret: Uint8Array) =>
  new Uint8Array(createHmac('sha256', secret).update('switchboard:signup-form').digest());

export function issueFormToken(secret: Uint8Array, now = Date.now()): Promise<string> {
  return new SignJWT({ purpose: 'signup' })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(Math.floor(now / 1000))
    .setExpirationTime(Math.floor(now / 1000) + FORM_HOURS * 3600)
    .sign(keyOf(secret));
}

const refused = () =>
  new AppError(
    'unprocessable',
    'We could not accept this sign-up. Reload the page, fill the form in again and send it.',
  );

export async function checkForm(
  secret: Uint8Array,
  input: { form_token: string; website?: string | null },
  minSeconds: number,
  now = Date.now(),
): Promise<void> {
  if (input.website?.trim()) throw refused();
  let issuedAt: number | undefined;
  try {
    const { payload } = await jwtVerify(input.form_token, keyOf(secret), {
      algorithms: ['HS256'],
      requiredClaims: ['iat', 'exp'],
      currentDate: new Date(now),
    });
    if (payload.purpose === 'signup') issuedAt = payload.iat;
  } catch {
    throw new AppError(
      'unprocessable',
      'This sign-up form has expired. Reload the page and send it again; what you typed is kept.',
    );
  }
  if (issuedAt === undefined) throw refused();
  if (now / 1000 - issuedAt < minSeconds) throw refused();
}
