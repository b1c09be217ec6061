import { describe, expect, it } from 'vitest';
import { dateRangeBounds, defaultAnalyticsRange } from './date-range.ts';

const MELBOURNE = 'Australia/Melbourne';

describe('Date range: "filter runs from the start of the start day to the end of the end day"', () => {
  it.each([
    {
      when: 'two days in Melbourne winter (UTC+10)',
      start: '2024-05-01',
      end: '2024-05-07',
      timezone: MELBOURNE,
      from: '2024-04-30T14:00:00.000Z',
      to: '2024-05-07T13:59:59.999Z',
    },
    {
      when: 'ISO timestamps, read as the Melbourne days they fall on',
      start: '2024-04-30T14:00:00.000Z',
      end: '2024-05-07T13:59:59.999Z',
      timezone: MELBOURNE,
      from: '2024-04-30T14:00:00.000Z',
      to: '2024-05-07T13:59:59.999Z',
    },
    {
      when: 'ISO timestamps with an offset',
      start: '2024-05-01T09:30:00+10:00',
      end: '2024-05-07T00:00:00+10:00',
      timezone: MELBOURNE,
      from: '2024-04-30T14:00:00.000Z',
      to: '2024-05-07T13:59:59.999Z',
    },
    {
      when: 'days that end on the day daylight saving ends (25 hours long)',
      start: '2024-04-06',
      end: '2024-04-07',
      timezone: MELBOURNE,
      from: '2024-04-05T13:00:00.000Z',
      to: '2024-04-07T13:59:59.999Z',
    },
    {
      when: 'days that end on the day daylight saving starts (23 hours long)',
      start: '2024-10-05',
      end: '2024-10-06',
      timezone: MELBOURNE,
      from: '2024-10-04T14:00:00.000Z',
      to: '2024-10-06T12:59:59.999Z',
    },
    {
      when: 'days in UTC',
      start: '2024-05-01',
      end: '2024-05-02',
      timezone: 'UTC',
      from: '2024-05-01T00:00:00.000Z',
      to: '2024-05-02T23:59:59.999Z',
    },
    {
      when: 'days across New York daylight saving',
      start: '2024-03-09',
      end: '2024-03-10',
      timezone: 'America/New_York',
      from: '2024-03-09T05:00:00.000Z',
      to: '2024-03-11T03:59:59.999Z',
    },
  ])('covers $when', ({ start, end, timezone, from, to }) => {
    const now = new Date('2024-12-01T00:00:00Z');
    expect(dateRangeBounds(start, end, timezone, now)).toEqual({ from: new Date(from), to: new Date(to) });
  });

  it.each([
    { when: 'today', day: '2024-05-07', now: '2024-05-07T03:00:00.000Z', from: '2024-05-06T14:00:00.000Z' },
    {
      when: 'a past day (the spec makes no exception)',
      day: '2024-05-01',
      now: '2024-05-07T03:00:00.000Z',
      from: '2024-04-30T14:00:00.000Z',
    },
    {
      when: 'one day given as two timestamps on the same Melbourne day',
      day: '2024-05-06T14:00:00Z',
      now: '2024-05-07T03:00:00.000Z',
      from: '2024-05-06T14:00:00.000Z',
    },
  ])('"or to now when the range is one day": $when', ({ day, now, from }) => {
    expect(dateRangeBounds(day, day, MELBOURNE, new Date(now))).toEqual({
      from: new Date(from),
      to: new Date(now),
    });
  });

  it.each([
    { start: '2024-05-02', end: '2024-05-01' },
    { start: 'yesterday', end: '2024-05-01' },
  ])('rejects a range from $start to $end', ({ start, end }) => {
    expect(() => dateRangeBounds(start, end, MELBOURNE)).toThrow(RangeError);
  });
});

describe('Default analytics range: "last 7 days, timezone Australia/Melbourne"', () => {
  it.each([
    {
      when: 'midday on 7 May',
      now: '2024-05-07T03:00:00Z',
      dateRange: ['2024-05-01T00:00:00.000+10:00', '2024-05-07T23:59:59.999+10:00'],
    },
    {
      when: 'the last second of 7 May in Melbourne',
      now: '2024-05-07T13:59:59Z',
      dateRange: ['2024-05-01T00:00:00.000+10:00', '2024-05-07T23:59:59.999+10:00'],
    },
    {
      when: 'midnight starting 8 May in Melbourne (still 7 May in UTC)',
      now: '2024-05-07T14:00:00Z',
      dateRange: ['2024-05-02T00:00:00.000+10:00', '2024-05-08T23:59:59.999+10:00'],
    },
    {
      when: 'a week that spans the end of daylight saving',
      now: '2024-04-09T01:00:00Z',
      dateRange: ['2024-04-03T00:00:00.000+11:00', '2024-04-09T23:59:59.999+10:00'],
    },
  ])('runs from 6 days ago to the end of today at $when', ({ now, dateRange }) => {
    expect(defaultAnalyticsRange(new Date(now))).toEqual({ dateRange, timezone: MELBOURNE, dayDiff: 6 });
  });
});
