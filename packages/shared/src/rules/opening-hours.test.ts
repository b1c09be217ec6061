import { describe, expect, it } from 'vitest';
import { availabilityLine, type OpeningHours, openingState, periodsProblem } from './opening-hours.ts';

const ZONE = 'Australia/Melbourne';
const weekdays = { open: '09:00', close: '17:00' };
const HOURS: OpeningHours = {
  sun: [],
  mon: [weekdays],
  tue: [weekdays],
  wed: [weekdays],
  thu: [
    { open: '08:00', close: '12:00' },
    { open: '13:00', close: '20:00' },
  ],
  fri: [weekdays],
  sat: [{ open: '10:00', close: '24:00' }],
};
// 2026-11-23 is a Monday; Melbourne is on daylight time (+11:00) in November.
const local = (text: string) => new Date(`${text}+11:00`);

describe('openingState', () => {
  it('is always open without hours', () => {
    expect(openingState(null, ZONE, local('2026-11-22T03:00'))).toEqual({ open: true, until: null });
  });

  it('is open inside a period, until its end', () => {
    expect(openingState(HOURS, ZONE, local('2026-11-23T09:00'))).toEqual({
      open: true,
      until: local('2026-11-23T17:00'),
    });
  });

  it('is closed at the closing minute and opens the next morning', () => {
    expect(openingState(HOURS, ZONE, local('2026-11-23T17:00'))).toEqual({
      open: false,
      opens: local('2026-11-24T09:00'),
    });
  });

  it('opens again after a lunch break the same day', () => {
    expect(openingState(HOURS, ZONE, local('2026-11-26T12:30'))).toEqual({
      open: false,
      opens: local('2026-11-26T13:00'),
    });
  });

  it('skips closed days, and a period to 24:00 lasts until midnight', () => {
    expect(openingState(HOURS, ZONE, local('2026-11-28T23:59'))).toEqual({
      open: true,
      until: local('2026-11-29T00:00'),
    });
    expect(openingState(HOURS, ZONE, local('2026-11-29T08:00'))).toEqual({
      open: false,
      opens: local('2026-11-30T09:00'),
    });
  });

  it('reads wall-clock times right on the day daylight saving starts', () => {
    // 2026-10-04 is a Sunday: clocks go from 2:00 to 3:00, and 9:00 that day is +11:00.
    const sunday: OpeningHours = { ...HOURS, sun: [weekdays] };
    expect(openingState(sunday, ZONE, new Date('2026-10-03T14:00:00Z'))).toEqual({
      open: false,
      opens: new Date('2026-10-03T22:00:00Z'),
    });
  });

  it('never opens with no periods on any day', () => {
    const none = Object.fromEntries(Object.keys(HOURS).map((d) => [d, []])) as unknown as OpeningHours;
    expect(openingState(none, ZONE, local('2026-11-23T10:00'))).toEqual({ open: false, opens: null });
  });

  it('is closed all day on a holiday and opens on the next working day after a run of them', () => {
    // Christmas Day is a Friday in 2026; Saturday and Monday are holidays too.
    const holidays = ['2026-12-25', '2026-12-26', '2026-12-28'];
    expect(openingState(HOURS, ZONE, local('2026-12-25T10:00'), holidays)).toEqual({
      open: false,
      opens: local('2026-12-29T09:00'),
    });
    expect(openingState(HOURS, ZONE, local('2026-12-24T21:00'), holidays)).toEqual({
      open: false,
      opens: local('2026-12-29T09:00'),
    });
    // A holiday elsewhere in the year changes nothing today.
    expect(openingState(HOURS, ZONE, local('2026-11-23T10:00'), holidays)).toEqual({
      open: true,
      until: local('2026-11-23T17:00'),
    });
  });

  it('without weekly hours, is open until the next holiday and closed on it', () => {
    expect(openingState(null, ZONE, local('2026-12-23T15:00'), ['2026-12-25'])).toEqual({
      open: true,
      until: local('2026-12-25T00:00'),
    });
    expect(openingState(null, ZONE, local('2026-12-25T15:00'), ['2026-12-25'])).toEqual({
      open: false,
      opens: local('2026-12-26T00:00'),
    });
  });
});

describe('availabilityLine', () => {
  it('says when the location opens after a holiday', () => {
    expect(availabilityLine(HOURS, 'hour', ZONE, local('2026-11-23T10:00'), ['2026-11-23'])).toBe(
      "We're closed now and open again tomorrow at 9 am. Leave a message and we'll reply then.",
    );
  });

  it('says only the day when a location without hours opens after a holiday', () => {
    expect(availabilityLine(null, null, ZONE, local('2026-12-25T10:00'), ['2026-12-25', '2026-12-26'])).toBe(
      "We're closed now and open again Sunday. Leave a message and we'll reply then.",
    );
  });

  it('says how soon replies come while open', () => {
    expect(availabilityLine(HOURS, 'minutes', ZONE, local('2026-11-23T10:00'))).toBe(
      'We usually reply within a few minutes.',
    );
    expect(availabilityLine(null, null, ZONE, local('2026-11-23T10:00'))).toBe('We reply as soon as we can.');
  });

  it('says when a closed location opens again, in its own time zone', () => {
    expect(availabilityLine(HOURS, 'hour', ZONE, local('2026-11-23T07:00'))).toBe(
      "We're closed now and open again today at 9 am. Leave a message and we'll reply then.",
    );
    expect(availabilityLine(HOURS, 'hour', ZONE, local('2026-11-23T18:00'))).toBe(
      "We're closed now and open again tomorrow at 9 am. Leave a message and we'll reply then.",
    );
    expect(availabilityLine({ ...HOURS, sat: [] }, 'hour', ZONE, local('2026-11-27T18:00'))).toBe(
      "We're closed now and open again Monday at 9 am. Leave a message and we'll reply then.",
    );
    const half = { ...HOURS, tue: [{ open: '09:30', close: '17:00' }] };
    expect(availabilityLine(half, null, ZONE, local('2026-11-23T20:00'))).toBe(
      "We're closed now and open again tomorrow at 9:30 am. Leave a message and we'll reply then.",
    );
  });
});

describe('periodsProblem', () => {
  it('accepts ordered periods and refuses backwards or overlapping ones', () => {
    expect(periodsProblem(HOURS.thu)).toBeNull();
    expect(periodsProblem([{ open: '17:00', close: '09:00' }])).toBe('17:00–09:00 must end after it starts.');
    expect(
      periodsProblem([
        { open: '12:00', close: '18:00' },
        { open: '09:00', close: '13:00' },
      ]),
    ).toBe('09:00–13:00 overlaps 12:00.');
  });
});
