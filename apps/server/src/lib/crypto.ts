import { createCipheriv, createDecipheriv, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Encrypts a JSON value with AES-256-GCM: `v1:` + base64(iv ‖ tag ‖ ciphertext). `context` is bound in as
 * additional authenticated data (e.g. the row id), so a ciphertext copied onto another row does not decrypt.
 */
export function encryptJson(key: Buffer, value: unknown, context = ''): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
  return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64')}`;
}

/** The value encryptJson stored; throws when the key, the context or the bytes do not match. */
export function decryptJson<T>(key: Buffer, sealed: string, context = ''): T {
  if (!sealed.startsWith(`${VERSION}:`)) throw new Error('unknown encrypted value format');
  const raw = Buffer.from(sealed.slice(VERSION.length + 1), 'base64');
  const iv = raw.subarray(0, IV_BYTES);
  const tag = raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES);
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAAD(Buffer.from(context, 'utf8'));
  decipher.setAuthTag(tag);
  const plain = Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
  return JSON.parse(plain.toString('utf8')) as T;
}

/** `••••abcd`: enough for a person to recognise which secret is stored, never enough to use it. */
export function maskSecret(secret: string | null | undefined): string | null {
  if (!secret) return null;
  // Short secrets show no tail: four characters of an eight-character secret would be half of it.
  return secret.length >= 12 ? `••••${secret.slice(-4)}` : '••••';
}

/** A key for one purpose derived from the app's encryption key, so one key never serves two uses. */
export function deriveKey(key: Buffer, purpose: string): Buffer {
  return createHmac('sha256', key).update(purpose).digest();
}

export function hmac(algorithm: 'sha1' | 'sha256' | 'sha512', key: string | Buffer, data: string | Buffer) {
  return createHmac(algorithm, key).update(data).digest();
}

/** Constant-time comparison of two strings (false when the lengths differ). */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}
