import { deriveKey, hmac, safeEqual } from '../../lib/crypto.ts';

/** How long a provider may take to fetch an attachment (Twilio, Meta and RBM fetch at once; retries later). */
export const MEDIA_URL_TTL_SECONDS = 24 * 60 * 60;

const keyOf = (encryptionKey: Buffer) => deriveKey(encryptionKey, 'switchboard:media-url:v1');

function signature(encryptionKey: Buffer, uploadId: string, exp: number): string {
  return hmac('sha256', keyOf(encryptionKey), `${uploadId}.${exp}`).toString('base64url');
}

/** `PUBLIC_URL/media/{upload_id}?exp=&sig=`: a link a provider can fetch without logging in, until it expires. */
export function signedMediaUrl(
  config: { publicUrl: string; encryptionKey: Buffer },
  uploadId: string,
  now = Date.now(),
): string {
  const exp = Math.floor(now / 1000) + MEDIA_URL_TTL_SECONDS;
  return `${config.publicUrl}/media/${uploadId}?exp=${exp}&sig=${signature(config.encryptionKey, uploadId, exp)}`;
}

export function verifyMediaUrl(
  encryptionKey: Buffer,
  uploadId: string,
  exp: string | undefined,
  sig: string | undefined,
): 'ok' | 'expired' | 'invalid' {
  if (!exp || !sig || !/^\d{1,12}$/.test(exp)) return 'invalid';
  if (!safeEqual(signature(encryptionKey, uploadId, Number(exp)), sig)) return 'invalid';
  return Number(exp) * 1000 < Date.now() ? 'expired' : 'ok';
}
