import { hmac, safeEqual } from '../../lib/crypto.ts';

/**
 * `X-Hub-Signature-256: sha256=<hex HMAC-SHA256(App Secret, raw body)>`, over the bytes exactly as received:
 * Meta signs its escaped-unicode serialisation, so a re-serialised body does not verify.
 */
export function verifyHubSignature(appSecret: string, raw: Buffer, header: string | undefined): boolean {
  if (!header?.startsWith('sha256=') || !appSecret) return false;
  const expected = `sha256=${hmac('sha256', appSecret, raw).toString('hex')}`;
  return safeEqual(expected, header.trim().toLowerCase());
}

export function hubSignature(appSecret: string, raw: Buffer | string): string {
  return `sha256=${hmac('sha256', appSecret, raw).toString('hex')}`;
}
