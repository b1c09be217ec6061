import { describe, expect, it } from 'vitest';
import { exampleValues, insertAtCursor } from './placeholders.ts';

describe('inserting a placeholder at the cursor', () => {
  it.each([
    { value: '', start: 0, end: 0, result: '{first_name}', cursor: 12 },
    { value: 'Hi , welcome', start: 3, end: 3, result: 'Hi {first_name}, welcome', cursor: 15 },
    { value: 'Hi there', start: 3, end: 8, result: 'Hi {first_name}', cursor: 15 },
    // A selection made right to left has its end before its start.
    { value: 'Hi there', start: 8, end: 3, result: 'Hi {first_name}', cursor: 15 },
    { value: 'Hi', start: 2, end: 2, result: 'Hi{first_name}', cursor: 14 },
    { value: 'Hi', start: 40, end: 50, result: 'Hi{first_name}', cursor: 14 },
    { value: 'Hi', start: -3, end: -1, result: '{first_name}Hi', cursor: 12 },
  ])('turns "$value" with $start–$end selected into "$result"', ({ value, start, end, result, cursor }) => {
    expect(insertAtCursor(value, { start, end }, '{first_name}')).toEqual({ value: result, cursor });
  });
});

describe('example values for the preview', () => {
  // 21 Nov 2025 10:00 in Melbourne was a Friday.
  const now = new Date('2025-11-20T23:00:00Z');

  it('uses the location’s name and the next weekday in the business’s time zone', () => {
    expect(
      exampleValues({
        businessName: 'Harbourside Dental',
        locationName: 'Docklands',
        timezone: 'Australia/Melbourne',
        now,
      }),
    ).toEqual({
      first_name: 'Alex',
      business_name: 'Harbourside Dental',
      location_name: 'Docklands',
      business_day: 'Monday',
    });
    // Still Thursday in Los Angeles, so the next weekday is Friday there.
    expect(
      exampleValues({ businessName: 'B', locationName: 'L', timezone: 'America/Los_Angeles', now })
        .business_day,
    ).toBe('Friday');
  });

  it.each([null, undefined, ''])('names a location without a name (%j) by the business', (locationName) => {
    expect(
      exampleValues({ businessName: 'Harbourside Dental', locationName, timezone: 'UTC', now }).location_name,
    ).toBe('Harbourside Dental');
  });
});
