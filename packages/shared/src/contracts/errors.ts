import type { core } from 'zod';
import { z } from 'zod';

/**
 * What a refused request answers: `message` is one text for a person (shown where the form could not place
 * a field's own message), `fields` the message for each field it is about, keyed by the field's dotted path
 * in the request (`review_link`, `lines.0.amount`). Other refusals may carry `fields` too, when they are about
 * one field (an email already in the team).
 */
export const ErrorBody = z.object({
  code: z.string(),
  message: z.string(),
  fields: z.record(z.string(), z.string()).optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

export const ValidationFailure = ErrorBody.extend({
  code: z.literal('validation_failed'),
  fields: z.record(z.string(), z.string()),
});
export type ValidationFailure = z.infer<typeof ValidationFailure>;

/** One thing wrong with a request: where (empty for the request as a whole) and what, in words. */
export type FieldProblem = { path: readonly PropertyKey[]; message: string };

const KINDS: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  bigint: 'a whole number',
  boolean: 'yes or no',
  array: 'a list',
  date: 'a date',
  object: 'the details',
};

const FORMATS: Record<string, string> = {
  email: 'Please enter a valid email address, such as name@example.com',
  url: 'Please enter a full web address starting with https://',
  uuid: 'Please choose one from the list',
  guid: 'Please choose one from the list',
  date: 'Please enter a valid date',
  datetime: 'Please enter a valid date and time',
  time: 'Please enter a valid time',
  e164: 'Please enter a valid phone number, such as +61 491 570 156',
};

function tooSmall(issue: core.$ZodRawIssue<core.$ZodIssueTooSmall>): string {
  const min = String(issue.minimum);
  switch (issue.origin) {
    case 'string':
      return Number(issue.minimum) <= 1 ? 'Please fill this in' : `Please use at least ${min} characters`;
    case 'array':
    case 'set':
      return Number(issue.minimum) <= 1 ? 'Please choose at least one' : `Please choose at least ${min}`;
    case 'date':
      return 'Please choose a later date';
    default:
      return issue.inclusive === false ? `Please enter more than ${min}` : `Please enter ${min} or more`;
  }
}

function tooBig(issue: core.$ZodRawIssue<core.$ZodIssueTooBig>): string {
  const max = String(issue.maximum);
  switch (issue.origin) {
    case 'string':
      return `Please use at most ${max} characters`;
    case 'array':
    case 'set':
      return `Please choose at most ${max}`;
    case 'date':
      return 'Please choose an earlier date';
    case 'file':
      return 'This file is too large';
    default:
      return issue.inclusive === false ? `Please enter less than ${max}` : `Please enter ${max} or less`;
  }
}

function choices(values: readonly unknown[]): string {
  if (values.length === 0 || values.length > 6) return 'Please choose one of the options offered';
  return `Please choose one of: ${values.map((v) => String(v)).join(', ')}`;
}

/**
 * Zod's own wording ("Too small: expected string to have >=1 characters") rewritten for the person who typed
 * the value, by kind of problem. A schema's own message always wins over this: it is only the default.
 */
export function plainIssueMessage(issue: core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined || issue.input === null || issue.input === '')
        return 'Please fill this in';
      return `Please enter ${KINDS[issue.expected] ?? 'a valid value'}`;
    case 'too_small':
      return tooSmall(issue);
    case 'too_big':
      return tooBig(issue);
    case 'invalid_format':
      return FORMATS[issue.format] ?? 'This is not in the expected format';
    case 'not_multiple_of':
      return `Please enter a multiple of ${String(issue.divisor)}`;
    case 'unrecognized_keys':
      return `${issue.keys.join(', ')} cannot be set here`;
    case 'invalid_value':
      return choices(issue.values);
    case 'invalid_element':
      return 'Please check the items in this list';
    default:
      return 'Please check this value';
  }
}

/** Words a person reads in capitals. */
const ACRONYMS = new Set(['id', 'ids', 'ip', 'sid', 'url', 'sms', 'ai', 'api', 'vat', 'abn', 'pin']);

function humanised(key: string): string {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replaceAll('_', ' ')
    .trim()
    .toLowerCase()
    .split(/\s+/)
    .map((word) => (ACRONYMS.has(word) ? (word === 'ids' ? 'IDs' : word.toUpperCase()) : word))
    .join(' ');
}

/** A field's path as a person would name it: `review_link` → "Review link", `lines.0.amount` → "Amount (row 1)". */
export function fieldLabel(path: readonly PropertyKey[]): string {
  const key = [...path].reverse().find((p): p is string => typeof p === 'string');
  const index = path.find((p): p is number => typeof p === 'number');
  const row = index === undefined ? '' : `row ${index + 1}`;
  const name = key ? humanised(key) : '';
  const label = name && row ? `${name} (${row})` : name || row;
  return label.charAt(0).toUpperCase() + label.slice(1);
}

function sentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/** The dotted key a field's message is sent under. */
export const fieldKey = (path: readonly PropertyKey[]): string => path.map(String).join('.');

/**
 * The answer's `message` and `fields` for a list of problems: one entry per field (its first problem), and a
 * text that names each field with its problem, for wherever the fields cannot be shown one by one.
 */
export function describeProblems(problems: readonly FieldProblem[]): {
  message: string;
  fields: Record<string, string>;
} {
  const fields: Record<string, string> = {};
  const parts: string[] = [];
  for (const problem of problems) {
    if (problem.path.length === 0) {
      parts.push(sentence(problem.message));
      continue;
    }
    const key = fieldKey(problem.path);
    if (key in fields) continue;
    fields[key] = problem.message;
    parts.push(`${fieldLabel(problem.path)}: ${sentence(problem.message)}`);
  }
  const message = [...new Set(parts)].join(' ') || 'Please check the details and try again.';
  return { message, fields };
}
