/** Every error the API can answer with: a stable code and the HTTP status it maps to. */
export const ERROR_STATUS = {
  bad_request: 400,
  validation_failed: 400,
  unauthenticated: 401,
  session_expired: 401,
  invalid_credentials: 401,
  forbidden: 403,
  owner_only: 403,
  super_admin_only: 403,
  no_business: 403,
  email_not_verified: 403,
  subscription_inactive: 403,
  not_found: 404,
  enquiry_not_found: 404,
  conflict: 409,
  replied_meanwhile: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  unprocessable: 422,
  rate_limited: 429,
  message_limit_reached: 429,
  internal_error: 500,
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly headers?: Record<string, string>;
  /** More of the answer beside `message` and `code`, for a client to act on (what it collided with). */
  readonly details?: Record<string, unknown>;

  constructor(
    code: ErrorCode,
    message: string,
    options?: { headers?: Record<string, string>; details?: Record<string, unknown> },
  ) {
    super(message);
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.headers = options?.headers;
    this.details = options?.details;
  }
}

export const notFound = (what: string) => new AppError('not_found', `${what} not found.`);

/**
 * A refusal about one field of the request (an email already in the team): the answer names the field in
 * `fields`, as a validation failure does, so the form shows it under that field.
 */
export const fieldError = (code: ErrorCode, field: string, message: string) =>
  new AppError(code, message, { details: { fields: { [field]: message } } });
