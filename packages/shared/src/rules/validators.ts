import { z } from 'zod';

const LOCAL_PART = /(?:[^<>()[\]\\.,;:\s@"]+(?:\.[^<>()[\]\\.,;:\s@"]+)*|".+")/.source;
const OCTET = /(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)/.source;
const IP_LITERAL = `\\[${OCTET}(?:\\.${OCTET}){3}\\]`;
const DOMAIN = /(?:[a-zA-Z0-9-]+\.)+[a-zA-Z]{2,}/.source;
const EMAIL = new RegExp(`^${LOCAL_PART}@(?:${IP_LITERAL}|${DOMAIN})$`);

// The whole value must be one link; `\S+` stops '[a](b) [c](d)' from reading as one odd URL, while
// still allowing parentheses inside the URL itself.
const MARKDOWN_LINK = /^\[[^\]]*\]\((\S+)\)$/;

/** Local part, @, then a domain whose dotted suffix has at least 2 letters, or an IPv4 literal. */
export function isValidEmail(value: string): boolean {
  return EMAIL.test(value);
}

/** The URL of a markdown link `[text](url)`; any other value is returned unchanged. */
export function unwrapMarkdownLink(value: string): string {
  return MARKDOWN_LINK.exec(value)?.[1] ?? value;
}

/** Parses (a scheme is required) and has a host, so 'mailto:' and 'file:///' links are not URLs here. */
export function isValidUrl(value: string): boolean {
  try {
    return new URL(unwrapMarkdownLink(value)).host !== '';
  } catch {
    return false;
  }
}

export const EmailSchema = z.string().refine(isValidEmail, 'Please enter a valid email address');
export const UrlSchema = z.string().refine(isValidUrl, 'Please enter a valid URL, such as https://example.com');

const TYPE_MESSAGE = '${label} is not a valid ${type}';

type RangeMessages = { len: string; min: string; max: string; range: string };

/** The shape of antd's Form `validateMessages`, so the web app can pass this object straight in. */
export type FormMessages = {
  required: string;
  enum: string;
  whitespace: string;
  date: { format: string; parse: string; invalid: string };
  types: Record<
    | 'string'
    | 'method'
    | 'array'
    | 'object'
    | 'number'
    | 'date'
    | 'boolean'
    | 'integer'
    | 'float'
    | 'regexp'
    | 'email'
    | 'url'
    | 'hex',
    string
  >;
  string: RangeMessages;
  number: RangeMessages;
  array: RangeMessages;
  pattern: { mismatch: string };
};

// Templates use antd's `${name}` placeholders, filled in by the form, not by JavaScript.
export const formMessages: FormMessages = {
  required: 'Please enter ${label}',
  enum: '${label} must be one of ${enum}',
  whitespace: '${label} cannot be blank',
  date: {
    format: '${label} is not a valid date',
    parse: '${label} is not a valid date',
    invalid: '${label} is not a valid date',
  },
  types: {
    string: TYPE_MESSAGE,
    method: TYPE_MESSAGE,
    array: TYPE_MESSAGE,
    object: TYPE_MESSAGE,
    number: TYPE_MESSAGE,
    date: TYPE_MESSAGE,
    boolean: TYPE_MESSAGE,
    integer: TYPE_MESSAGE,
    float: TYPE_MESSAGE,
    regexp: TYPE_MESSAGE,
    email: TYPE_MESSAGE,
    url: TYPE_MESSAGE,
    hex: TYPE_MESSAGE,
  },
  string: {
    len: '${label} must be exactly ${len} characters',
    min: '${label} must be at least ${min} characters',
    max: '${label} must be at most ${max} characters',
    range: '${label} must be between ${min} and ${max} characters',
  },
  number: {
    len: '${label} must be ${len}',
    min: '${label} must be at least ${min}',
    max: '${label} must be at most ${max}',
    range: '${label} must be between ${min} and ${max}',
  },
  array: {
    len: '${label} must have exactly ${len} items',
    min: '${label} must have at least ${min} items',
    max: '${label} must have at most ${max} items',
    range: '${label} must have between ${min} and ${max} items',
  },
  pattern: { mismatch: '${label} is not in the expected format' },
};
