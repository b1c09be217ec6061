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
export class TransientSendError extends Error {}
