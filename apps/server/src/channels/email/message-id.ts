import { createHash, randomUUID } from 'node:crypto';

/**
 * Message-IDs are stored without their angle brackets (`provider_message_id` of provider 'email'), exactly
 * as written otherwise: they are case-sensitive on the left of the `@`.
 */

const MAX_ID = 900;

/** A fresh id for a message we send: `<uuid>@<INBOUND_EMAIL_DOMAIN>`. */
export function newMessageId(domain: string): string {
  return `${randomUUID()}@${domain}`;
}

/** One id from a header value such as `<abc@host>` (or a bare `abc@host`), or null. */
export function normaliseMessageId(value: string | undefined | null): string | null {
  return messageIds(value)[0] ?? null;
}

/** The ids in an In-Reply-To or References value, in order, each once. */
export function messageIds(value: string | undefined | null): string[] {
  if (!value) return [];
  const bracketed = [...value.matchAll(/<([^<>\s]+)>/g)].map((m) => m[1]!);
  const ids = bracketed.length > 0 ? bracketed : value.split(/[\s,]+/).filter((v) => v.includes('@'));
  return [...new Set(ids.filter((id) => id.length <= MAX_ID))];
}

/** An id for a message that came without one: the same bytes give the same id, so a re-delivery dedupes. */
export function contentMessageId(raw: Uint8Array): string {
  return `sha256-${createHash('sha256').update(raw).digest('hex')}@no-message-id.invalid`;
}

/** Sandbox and other providers' ids are not Message-IDs; only these belong in In-Reply-To/References. */
export const isMessageId = (id: string) => /^[^<>\s@]+@[^<>\s@]+$/.test(id);
