import dayjs from 'dayjs';
import { NONCE_LENGTH } from '../constants.ts';

/**
 * First 2 and last 2 characters of the user id in upper case plus a YYMMDD date (the local date of
 * `date`). Ids shorter than 4 characters repeat characters, e.g. 'abc' gives 'ABBC'.
 */
export function sessionId(userId: string | number, date: Date = new Date()): string {
  const id = String(userId);
  if (id === '') throw new RangeError('A session id needs a user id');
  return `${id.slice(0, 2)}${id.slice(-2)}`.toUpperCase() + dayjs(date).format('YYMMDD');
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
// Bytes at or above the largest multiple of 62 are dropped, so `byte % 62` favours no character.
const UNBIASED_LIMIT = 256 - (256 % ALPHABET.length);
// getRandomValues refuses to fill more than 65536 bytes at once.
const MAX_RANDOM_BYTES = 65_536;

/** `length` random alphanumeric characters [A-Za-z0-9], each equally likely. */
export function nonce(length: number = NONCE_LENGTH): string {
  if (!Number.isInteger(length) || length < 0) throw new RangeError(`Invalid nonce length: ${length}`);
  const chars: string[] = [];
  while (chars.length < length) {
    const bytes = new Uint8Array(Math.min(length - chars.length, MAX_RANDOM_BYTES));
    globalThis.crypto.getRandomValues(bytes);
    for (const byte of bytes) {
      if (byte < UNBIASED_LIMIT) chars.push(ALPHABET.charAt(byte % ALPHABET.length));
    }
  }
  return chars.join('');
}
