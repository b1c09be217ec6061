import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeProblems, fieldLabel, plainIssueMessage } from './errors.ts';

/** Parses with the plain wording for this parse only, as the server does for every parse. */
function messagesOf(schema: z.ZodType, value: unknown): string[] {
  const result = schema.safeParse(value, { error: plainIssueMessage });
  return result.error?.issues.map((i) => i.message) ?? [];
}

describe('zod problems in words for the person who typed the value', () => {
  it.each([
    ['a missing field', z.object({ name: z.string() }), {}, 'Please fill this in'],
    ['an empty text', z.string().min(1), '', 'Please fill this in'],
    ['a short text', z.string().min(8), 'abc', 'Please use at least 8 characters'],
    ['a long text', z.string().max(5), 'abcdefg', 'Please use at most 5 characters'],
    ['a number for text', z.string(), 7, 'Please enter text'],
    ['text for a number', z.number(), 'seven', 'Please enter a number'],
    ['a fraction for a whole number', z.number().int(), 2.5, 'Please enter a whole number'],
    ['a number too small', z.number().min(1), 0, 'Please enter 1 or more'],
    ['a number too big', z.number().max(30), 31, 'Please enter 30 or less'],
    [
      'a web address without its scheme',
      z.url(),
      'example.com',
      'Please enter a full web address starting with https://',
    ],
    [
      'an email without an @',
      z.email(),
      'name.example.com',
      'Please enter a valid email address, such as name@example.com',
    ],
    ['an empty list', z.array(z.string()).min(1), [], 'Please choose at least one'],
    ['a choice not offered', z.enum(['daily', 'weekly']), 'hourly', 'Please choose one of: daily, weekly'],
    ['a field not known', z.strictObject({}), { colour: 'red' }, 'colour cannot be set here'],
  ])('%s', (_, schema, value, words) => {
    expect(messagesOf(schema, value)).toEqual([words]);
  });

  it('keeps a schema’s own message', () => {
    expect(messagesOf(z.string().url('Give the review link as an https:// address.'), 'x')).toEqual([
      'Give the review link as an https:// address.',
    ]);
  });
});

describe('field labels', () => {
  it.each([
    [['review_link'], 'Review link'],
    [['config', 'page_access_token'], 'Page access token'],
    [['lines', 0, 'unit_price'], 'Unit price (row 1)'],
    [['customer_ids', 2], 'Customer IDs (row 3)'],
    [['forms_per_ip'], 'Forms per IP'],
    [['displayName'], 'Display name'],
  ])('%j → %s', (path, label) => {
    expect(fieldLabel(path)).toBe(label);
  });
});

describe('a refused request’s message and fields', () => {
  it('names each field once, with its first problem, and keeps problems of the whole request', () => {
    expect(
      describeProblems([
        { path: ['review_link'], message: 'Give the review link as an https:// address.' },
        { path: ['lines', 0, 'amount'], message: 'Please enter 0 or more' },
        { path: ['lines', 0, 'amount'], message: 'Please enter a number' },
        { path: [], message: 'Nothing to change' },
      ]),
    ).toEqual({
      message:
        'Review link: Give the review link as an https:// address. Amount (row 1): Please enter 0 or more. Nothing to change.',
      fields: {
        review_link: 'Give the review link as an https:// address.',
        'lines.0.amount': 'Please enter 0 or more',
      },
    });
  });

  it('still says something when nothing is listed', () => {
    expect(describeProblems([])).toEqual({ message: 'Please check the details and try again.', fields: {} });
  });
});
