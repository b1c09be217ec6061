import { describeProblems, type FieldProblem, plainIssueMessage } from '@switchboard/shared';
import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ZodError, z } from 'zod';
import { AppError } from '../errors.ts';

type ErrorBody = { message: string; code: string; [detail: string]: unknown };

/**
 * One place that turns every failure into `{ message, code }` with the right status. Validation errors
 * (`validation_failed`) also carry `fields`, each field's problem in words, so a form can show it under the
 * field; 5xx answers never carry internal text.
 */
export const errorsPlugin = fp(async (app: FastifyInstance) => {
  // Zod's default wording is written for developers; a schema without its own message speaks to the person
  // who typed the value instead. Process-wide, so a schema checked inside a handler reads the same.
  z.config({ customError: plainIssueMessage });

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

function refused(problems: readonly FieldProblem[]): { status: number; body: ErrorBody } {
  return { status: 400, body: { ...describeProblems(problems), code: 'validation_failed' } };
}

function toResponse(error: FastifyError): { status: number; body: ErrorBody } {
  if (error instanceof AppError) {
    const body: ErrorBody = { ...error.details, message: error.message, code: error.code };
    if (error.code === 'validation_failed') body.fields ??= {};
    return { status: error.status, body };
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    return refused(
      error.validation.map((v) => ({
        path: v.instancePath.split('/').filter(Boolean).map(pathPart),
        message: v.message ?? 'Please check this value',
      })),
    );
  }
  // A schema checked inside a handler (an input read by hand) is still the client's mistake.
  if ((error as unknown) instanceof ZodError) return refused((error as unknown as ZodError).issues);
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

/** The library hands paths over as `/lines/0/amount`: indexes back to numbers, so a row reads as a row. */
function pathPart(part: string): string | number {
  return /^\d+$/.test(part) ? Number(part) : part;
}
