/**
 * Text PostgreSQL cannot store: a NUL character is refused in every text column, and an unpaired UTF-16
 * surrogate is refused inside jsonb (JSON.stringify writes it as a `\udXXX` escape). People and scripts
 * typing into the API are told (400); text a provider already accepted from a customer is cleaned instead,
 * because refusing a webhook would lose the customer's message.
 */

export type TextProblem = { path: (string | number)[]; message: string };

const MAX_DEPTH = 32;

function problemOf(text: string): string | null {
  if (text.includes('\u0000')) return 'Remove the NUL character (\\u0000) from this text';
  if (!text.isWellFormed())
    return 'Remove the broken character (an unpaired UTF-16 surrogate) from this text';
  return null;
}

/** The first string (or object key) in a parsed request part that cannot be stored, with its path. */
export function findTextProblem(value: unknown, path: (string | number)[] = []): TextProblem | null {
  if (typeof value === 'string') {
    const message = problemOf(value);
    return message ? { path, message } : null;
  }
  if (value === null || typeof value !== 'object' || path.length > MAX_DEPTH) return null;
  if (Buffer.isBuffer(value)) return null;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = findTextProblem(item, [...path, i]);
      if (found) return found;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    const keyProblem = problemOf(key);
    if (keyProblem) return { path: [...path, key.replaceAll('\u0000', '\\u0000')], message: keyProblem };
    const found = findTextProblem(item, [...path, key]);
    if (found) return found;
  }
  return null;
}

/** The same value with NUL characters removed and unpaired surrogates replaced by U+FFFD, deeply. */
export function storableText<T>(value: T, depth = 0): T {
  if (typeof value === 'string') return value.replaceAll('\u0000', '').toWellFormed() as T;
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return value;
  if (Buffer.isBuffer(value) || value instanceof Date || value instanceof Uint8Array) return value;
  if (Array.isArray(value)) return value.map((item) => storableText(item, depth + 1)) as T;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[storableText(key)] = storableText(item, depth + 1);
  return out as T;
}

/**
 * Socket.IO middleware for a socket's incoming events: their arguments made storable as above (an event has no
 * status to refuse with, and most carry what a customer or a teammate typed); the acknowledgement is kept.
 */
export function storablePacket(packet: unknown[], next: (error?: Error) => void): void {
  for (let i = 1; i < packet.length; i++) packet[i] = storableText(packet[i]);
  next();
}
