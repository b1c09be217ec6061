import { describeProblems } from '@switchboard/shared';
import type { FastifyReply, FastifyRequest, FastifySchemaCompiler, HookHandlerDoneFunction } from 'fastify';
import { validatorCompiler as zodValidatorCompiler } from 'fastify-type-provider-zod';
import { AppError } from '../errors.ts';
import { findTextProblem, type TextProblem } from '../lib/text.ts';

const PARTS: Record<string, string> = {
  body: 'body',
  querystring: 'query',
  params: 'path',
  headers: 'headers',
};

/**
 * Every route's zod validation, preceded by one check of all the text in that part of the request: a NUL
 * character or an unpaired surrogate anywhere answers 400 naming the field, so no route has to remember it
 * and nothing reaches the database that it would refuse.
 */
export const validatorCompiler: FastifySchemaCompiler<unknown> = (route) => {
  const validate = zodValidatorCompiler(route as Parameters<typeof zodValidatorCompiler>[0]);
  const part = PARTS[route.httpPart ?? ''] ?? 'request';
  return (data: unknown) => {
    const problem = findTextProblem(data);
    if (problem) return { error: refusal(part, problem) };
    return validate(data);
  };
};

function refusal(part: string, problem: TextProblem): AppError {
  const { message, fields } = describeProblems([problem]);
  // Headers and paths are not form fields: say where it was instead.
  if (part !== 'body' && part !== 'query')
    return new AppError('validation_failed', `In the ${part}: ${message}`);
  return new AppError('validation_failed', message, { details: { fields } });
}

/**
 * The same check for a path or query a route reads without a schema (a webhook's, a form's or a public
 * link's): the validator compiler only runs for the parts that declare one, so a NUL in a form's token
 * reached the database and answered 500. Registered once, for every route.
 */
export function refuseUnstorablePathAndQuery(
  request: FastifyRequest,
  _reply: FastifyReply,
  done: HookHandlerDoneFunction,
): void {
  const schema = request.routeOptions.schema;
  const inPath = schema?.params ? null : findTextProblem(request.params);
  const inQuery = schema?.querystring ? null : findTextProblem(request.query);
  done(inPath ? refusal('path', inPath) : inQuery ? refusal('query', inQuery) : undefined);
}
