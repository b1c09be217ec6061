// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these are antd's `${name}` placeholders.
import { describe, expect, it } from 'vitest';
import { formMessages } from './form-messages.ts';

// Fills `${name}` the way antd's form does, to read the messages as a person would see them.
function fill(template: string, values: Partial<Record<string, string | number>>): string {
  return template.replace(/\$\{(\w+)\}/g, (whole, name: string) => String(values[name] ?? whole));
}

describe("Default form messages: \"'Please enter ${label}'; '${label} is not a valid ${type}'; plus length, min, max and range messages\"", () => {
  it.each([
    { template: formMessages.required, values: { label: 'Email' }, text: 'Please enter Email' },
    {
      template: formMessages.types.email,
      values: { label: 'Email', type: 'email' },
      text: 'Email is not a valid email',
    },
    {
      template: formMessages.types.url,
      values: { label: 'Website', type: 'url' },
      text: 'Website is not a valid url',
    },
    {
      template: formMessages.types.number,
      values: { label: 'Limit', type: 'number' },
      text: 'Limit is not a valid number',
    },
    {
      template: formMessages.string.len,
      values: { label: 'PIN', len: 4 },
      text: 'PIN must be exactly 4 characters',
    },
    {
      template: formMessages.string.min,
      values: { label: 'Name', min: 2 },
      text: 'Name must be at least 2 characters',
    },
    {
      template: formMessages.string.max,
      values: { label: 'Name', max: 50 },
      text: 'Name must be at most 50 characters',
    },
    {
      template: formMessages.string.range,
      values: { label: 'Name', min: 2, max: 50 },
      text: 'Name must be between 2 and 50 characters',
    },
    {
      template: formMessages.number.min,
      values: { label: 'Limit', min: 1 },
      text: 'Limit must be at least 1',
    },
    {
      template: formMessages.number.range,
      values: { label: 'Limit', min: 1, max: 9 },
      text: 'Limit must be between 1 and 9',
    },
  ])('reads "$text"', ({ template, values, text }) => {
    expect(fill(template, values)).toBe(text);
  });

  it.each(Object.entries(formMessages.types))(
    "uses '${label} is not a valid ${type}' for %s",
    (_type, template) => {
      expect(template).toBe('${label} is not a valid ${type}');
    },
  );
});
