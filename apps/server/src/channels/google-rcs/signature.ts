import { hmac, safeEqual } from '../../lib/crypto.ts';

/**
 * `X-Goog-Signature` = base64(HMAC-SHA512(key = webhook client token, msg = base64-decoded `message.data`)):
 * the MAC covers the decoded payload, not the HTTP body.
 */
export function verifyGoogSignature(
  clientToken: string,
  decoded: Buffer,
  header: string | undefined,
): boolean {
  if (!header || !clientToken) return false;
  return safeEqual(googSignature(clientToken, decoded), header.trim());
}

export function googSignature(clientToken: string, decoded: Buffer | string): string {
  return hmac('sha512', clientToken, decoded).toString('base64');
}
