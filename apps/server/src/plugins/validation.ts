import type { FastifySchemaCompiler } from 'fastify';
import { validatorCompiler as zodValidatorCompiler } from 'fastify-type-provider-zod';
import { AppError } from '../errors.ts';
import { findTextProblem } from '../lib/text.ts';

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
    if (problem) {
      const field = problem.path.join('.');
      return {
        error: new AppError(
          'validation_failed',
          `Invalid ${part}: ${field ? `${field}: ` : ''}${problem.message}`,
        ),
      };
    }
    return validate(data);
  };
};
