import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ZodError } from 'zod';
import { AppError } from '../errors.ts';

type ErrorBody = { message: string; code: string; [detail: string]: unknown };

/**
 * One place that turns every failure into `{ message, code }` with the right status. Validation errors name
 * the field and what is wrong with it; 5xx answers never carry internal text.
 */
export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('onSend', async (request, reply) => {
    reply.header('request-id', request.id);
    // Readable by the page also when it calls from another origin (a separate API or analytics host, the
    // widget on a customer's site): the error notice shows the request id, and the session renews itself.
    reply.header('access-control-expose-headers', 'request-id, refresh-token');
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const { status, body } = toResponse(error);
    if (status >= 500) request.log.error({ err: error }, 'request failed');
    if (error instanceof AppError && error.headers) reply.headers(error.headers);
    return reply.status(status).send(body);
  });
});

function toResponse(error: FastifyError): { status: number; body: ErrorBody } {
  if (error instanceof AppError)
    return { status: error.status, body: { ...error.details, message: error.message, code: error.code } };
  if (hasZodFastifySchemaValidationErrors(error)) {
    const where = error.validationContext ?? 'request';
    const details = error.validation.map((v) => {
      const field = v.instancePath.replace(/^\//, '').replaceAll('/', '.');
      return field ? `${field}: ${v.message}` : v.message;
    });
    return {
      status: 400,
      body: { message: `Invalid ${where}: ${details.join('; ')}`, code: 'validation_failed' },
    };
  }
  // A schema checked inside a handler (an input read by hand) is still the client's mistake.
  if ((error as unknown) instanceof ZodError) {
    const details = (error as unknown as ZodError).issues.map((i) =>
      i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message,
    );
    return {
      status: 400,
      body: { message: `Invalid request: ${details.join('; ')}`, code: 'validation_failed' },
    };
  }
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_REQ_FILE_TOO_LARGE':
    case 'FST_FILES_LIMIT':
    case 'FST_PARTS_LIMIT':
      return { status: 413, body: { message: 'The request body is too large.', code: 'payload_too_large' } };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return {
        status: 415,
        body: { message: 'This content type is not supported here.', code: 'unsupported_media_type' },
      };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return { status: 400, body: { message: 'The request body is not valid JSON.', code: 'bad_request' } };
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return {
        status: 400,
        body: { message: 'Expected a multipart/form-data upload.', code: 'bad_request' },
      };
  }
  if (error.statusCode === 429) {
    return {
      status: 429,
      body: { message: 'Too many requests. Please wait and try again.', code: 'rate_limited' },
    };
  }
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    return { status: error.statusCode, body: { message: error.message, code: 'bad_request' } };
  }
  return {
    status: 500,
    body: {
      message: 'Something went wrong on our side. Our engineers have been notified.',
      code: 'internal_error',
    },
  };
}
