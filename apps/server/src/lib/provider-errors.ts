/** How a provider call failed: the send pipeline retries transient failures and fails permanent ones at once. */

/** The provider refused the message for good (bad number, opted out, …): fail at once with the reason. */
export class PermanentSendError extends Error {
  readonly providerCode?: string;
  constructor(message: string, providerCode?: string) {
    super(message);
    this.providerCode = providerCode;
  }
}

/** A timeout, 5xx or 429: worth retrying with backoff. */
export class TransientSendError extends Error {
  /** The provider said to slow down (429): every send through that account waits, not only this one. */
  readonly rateLimited: boolean;
  /** How long the provider asked us to wait (its Retry-After), when it said. */
  readonly retryAfterSeconds?: number;
  constructor(message: string, options: { rateLimited?: boolean; retryAfterSeconds?: number } = {}) {
    super(message);
    this.rateLimited = options.rateLimited ?? false;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/** Seconds from an HTTP Retry-After header (seconds or a date), or undefined when absent or unreadable. */
export function retryAfterSeconds(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, (at - now) / 1000);
}
