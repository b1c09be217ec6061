import type { ErrorFacts } from './error-catalogue.ts';

/**
 * What every API call rejects with: the server's message and code, the status and request id, and whether
 * a notice about it has already been shown (so callers and the shared query handler do not show another).
 */
export class ApiError extends Error {
  readonly status?: number;
  readonly code?: string;
  readonly requestId?: string | null;
  readonly transport?: ErrorFacts['transport'];
  /** Each refused field's problem, keyed by its dotted path in the request (`review_link`, `items.0.quantity`). */
  readonly fields?: ErrorFacts['fields'];
  readonly notified: boolean;
  /** The raw response, when there was one (the original v1 client rejected with the response). */
  readonly response?: unknown;

  constructor(facts: ErrorFacts & { message: string; notified: boolean; response?: unknown }) {
    super(facts.message);
    this.name = 'ApiError';
    this.status = facts.status;
    this.code = facts.code;
    this.requestId = facts.requestId;
    this.transport = facts.transport;
    this.fields = facts.fields;
    this.notified = facts.notified;
    this.response = facts.response;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}
