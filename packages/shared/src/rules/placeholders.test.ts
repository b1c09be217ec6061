import { describe, expect, it } from 'vitest';
import {
  nextBusinessDay,
  renderTemplate,
  TEMPLATE_PLACEHOLDERS,
  type TemplateValues,
  templateParts,
  unknownPlaceholders,
} from './placeholders.ts';

const values: TemplateValues = {
  first_name: 'Jane',
  business_name: 'Acme Plumbing',
  location_name: 'Richmond',
  business_day: 'Monday',
};

describe('Message template placeholders: "first_name, business_name, business_day (next business day), location_name"', () => {
  it('lists the four placeholders', () => {
    expect([...TEMPLATE_PLACEHOLDERS].sort()).toEqual([
      'business_day',
      'business_name',
      'first_name',
      'location_name',
    ]);
  });

  it.each([
    {
      template: 'Hi {first_name}, thanks for contacting {business_name}.',
      values,
      text: 'Hi Jane, thanks for contacting Acme Plumbing.',
    },
    { template: 'Visit us at {location_name}', values, text: 'Visit us at Richmond' },
    { template: "We'll call you back on {business_day}.", values, text: "We'll call you back on Monday." },
    { template: 'Hi {{first_name}} from {{business_name}}', values, text: 'Hi Jane from Acme Plumbing' },
    { template: '{first_name} {first_name}', values, text: 'Jane Jane' },
    { template: 'Hi {last_name} and {{order_id}}', values, text: 'Hi {last_name} and {{order_id}}' },
    { template: 'Hi { first_name }', values, text: 'Hi { first_name }' },
    { template: 'Hi {first_name},', values: {}, text: 'Hi ,' },
    { template: 'Hi {first_name},', values: { first_name: null }, text: 'Hi ,' },
    { template: 'Hi {first_name}', values: { first_name: '{business_name}' }, text: 'Hi {business_name}' },
    { template: 'Hi {first_name}', values: { first_name: '$& $1' }, text: 'Hi $& $1' },
    { template: 'No placeholders', values, text: 'No placeholders' },
  ])('renders "$template" as "$text"', ({ template, values, text }) => {
    expect(renderTemplate(template, values)).toBe(text);
  });
});

describe('Template parts: the text and the placeholders a template is shown with', () => {
  it.each([
    {
      template: 'Hi {first_name}, thanks for contacting {{business_name}}.',
      parts: [
        { text: 'Hi ', placeholder: null },
        { text: '{first_name}', placeholder: 'first_name' },
        { text: ', thanks for contacting ', placeholder: null },
        { text: '{{business_name}}', placeholder: 'business_name' },
        { text: '.', placeholder: null },
      ],
    },
    {
      template: '{location_name}{business_day}',
      parts: [
        { text: '{location_name}', placeholder: 'location_name' },
        { text: '{business_day}', placeholder: 'business_day' },
      ],
    },
    {
      template: 'Hi {last_name} and { first_name }',
      parts: [{ text: 'Hi {last_name} and { first_name }', placeholder: null }],
    },
    { template: '', parts: [] },
  ])('cuts "$template" into $parts.length parts', ({ template, parts }) => {
    expect(templateParts(template)).toEqual(parts);
    expect(
      templateParts(template)
        .map((p) => p.text)
        .join(''),
    ).toBe(template);
  });
});

describe('Next business day: the next weekday after today', () => {
  it.each([
    // 6 May 2024 was a Monday. 10:00 in Melbourne is 00:00 UTC the same day.
    { today: 'Monday', now: '2024-05-06T00:00:00Z', timezone: 'Australia/Melbourne', day: 'Tuesday' },
    { today: 'Thursday', now: '2024-05-09T00:00:00Z', timezone: 'Australia/Melbourne', day: 'Friday' },
    { today: 'Friday', now: '2024-05-10T00:00:00Z', timezone: 'Australia/Melbourne', day: 'Monday' },
    { today: 'Saturday', now: '2024-05-11T00:00:00Z', timezone: 'Australia/Melbourne', day: 'Monday' },
    { today: 'Sunday', now: '2024-05-12T00:00:00Z', timezone: 'Australia/Melbourne', day: 'Monday' },
    // 2024-05-09T15:00Z is 01:00 Friday in Melbourne but still Thursday in UTC and Los Angeles.
    { today: 'Friday', now: '2024-05-09T15:00:00Z', timezone: 'Australia/Melbourne', day: 'Monday' },
    { today: 'Thursday', now: '2024-05-09T15:00:00Z', timezone: 'UTC', day: 'Friday' },
    { today: 'Thursday', now: '2024-05-09T15:00:00Z', timezone: 'America/Los_Angeles', day: 'Friday' },
    // 2024-05-10T13:59:59Z is 23:59:59 Friday in Melbourne; one second later it is Saturday.
    { today: 'Friday', now: '2024-05-10T13:59:59Z', timezone: 'Australia/Melbourne', day: 'Monday' },
    { today: 'Saturday', now: '2024-05-10T14:00:00Z', timezone: 'Australia/Melbourne', day: 'Monday' },
    { today: 'Sunday', now: '2024-05-12T14:00:00Z', timezone: 'America/New_York', day: 'Monday' },
  ])('is $day when it is $today ($now) in $timezone', ({ now, timezone, day }) => {
    expect(nextBusinessDay(new Date(now), timezone)).toBe(day);
  });

  it('skips the location’s holidays, as they fall in its time zone', () => {
    // Thursday 24 December 2026: Christmas (Friday) and Boxing Day Monday (the 28th) are holidays.
    const christmasEve = new Date('2026-12-24T00:00:00Z');
    const zone = 'Australia/Melbourne';
    expect(nextBusinessDay(christmasEve, zone)).toBe('Friday');
    expect(nextBusinessDay(christmasEve, zone, ['2026-12-25'])).toBe('Monday');
    expect(nextBusinessDay(christmasEve, zone, ['2026-12-25', '2026-12-28'])).toBe('Tuesday');
  });
});

describe('unknownPlaceholders', () => {
  it('names each placeholder that is not ours once, in order, and none for our four', () => {
    expect(unknownPlaceholders('Hi {first_name}, see you {business_day} at {location_name}')).toEqual([]);
    expect(unknownPlaceholders('Hi {firstname} {{ last_name }} and {firstname} again {first_name}')).toEqual([
      'firstname',
      'last_name',
    ]);
    expect(unknownPlaceholders('Braces alone { } or {1} stay text')).toEqual([]);
  });
});
