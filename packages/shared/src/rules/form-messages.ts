// biome-ignore-all lint/suspicious/noTemplateCurlyInString: antd's form fills these `${name}` placeholders, not JavaScript.

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
