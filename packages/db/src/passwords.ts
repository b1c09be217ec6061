import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

// argon2id with the library's defaults (19 MiB, t=2): the OWASP-recommended baseline.
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** A key and IV for the browser's `key`/`iv` cookies (AES-256-GCM sizes). */
export function newClientKey(): { client_key: string; client_iv: string } {
  return { client_key: randomBytes(32).toString('hex'), client_iv: randomBytes(12).toString('hex') };
}
