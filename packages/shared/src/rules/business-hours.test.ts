import { describe, expect, it } from 'vitest';
import { bucketDays, bucketStart, businessSeconds, openSecondsIn } from './business-hours.ts';
import type { OpeningHours } from './opening-hours.ts';

const ZONE = 'Australia/Melbourne';
const HOUR = 3600;
const morning = { open: '09:00', close: '12:00' };
const afternoon = { open: '13:00', close: '17:00' };
const weekday = [morning, afternoon];
/** Weekdays 9–12 and 13–17 (7 hours, closed for lunch), weekends closed. */
const OFFICE: OpeningHours = {
  sun: [],
  mon: weekday,
  tue: weekday,
  wed: weekday,
  thu: weekday,
  fri: weekday,
  sat: [],
};
/** A bar open Friday 18:00 through 02:00 Saturday morning, written as two days' periods. */
const LATE_NIGHT: OpeningHours = {
  sun: [],
  mon: [],
  tue: [],
  wed: [],
  thu: [],
  fri: [{ open: '18:00', close: '24:00' }],
  sat: [{ open: '00:00', close: '02:00' }],
};
/** Open only on Sundays 01:00–04:00, across the hours the clocks change in. */
const SMALL_HOURS: OpeningHours = {
  sun: [{ open: '01:00', close: '04:00' }],
  mon: [],
  tue: [],
  wed: [],
  thu: [],
  fri: [],
  sat: [],
};
const sundays = (periods: OpeningHours['sun']): OpeningHours => ({ ...SMALL_HOURS, sun: periods });

// 2026-11-23 is a Monday; Melbourne is on daylight time (+11:00) in November and standard time (+10:00) in winter.
const nov = (text: string) => new Date(`2026-11-${text}+11:00`);
const winter = (text: string) => new Date(`2026-${text}+10:00`);

describe('businessSeconds', () => {
  it.each([
    { when: 'inside one period', from: nov('23T10:00'), to: nov('23T11:30'), hours: 1.5 },
    { when: 'across the closed lunch hour', from: nov('23T11:00'), to: nov('23T14:00'), hours: 2 },
    { when: 'from before opening to after closing', from: nov('23T07:00'), to: nov('23T19:00'), hours: 7 },
    { when: 'entirely while closed, overnight', from: nov('23T17:00'), to: nov('24T09:00'), hours: 0 },
    { when: 'over a closed weekend', from: nov('27T16:00'), to: nov('30T10:00'), hours: 2 },
    { when: 'over a whole Monday to Sunday week', from: nov('23T00:00'), to: nov('30T00:00'), hours: 35 },
    { when: 'to the exact end of a period', from: nov('23T09:00'), to: nov('23T12:00'), hours: 3 },
  ])('counts open time $when', ({ from, to, hours }) => {
    expect(businessSeconds(from, to, OFFICE, ZONE)).toBe(hours * HOUR);
  });

  it('counts milliseconds as fractions of a second', () => {
    expect(businessSeconds(nov('23T10:00:00.000'), nov('23T10:00:01.500'), OFFICE, ZONE)).toBe(1.5);
  });

  it.each([
    { from: nov('23T12:00'), to: nov('23T10:00') },
    { from: nov('23T10:00'), to: nov('23T10:00') },
  ])('is 0 when the interval does not move forward ($from to $to)', ({ from, to }) => {
    expect(businessSeconds(from, to, OFFICE, ZONE)).toBe(0);
    expect(businessSeconds(from, to, null, ZONE)).toBe(0);
  });

  it('runs on across midnight when one day closes at 24:00 and the next opens at 00:00', () => {
    const friday = nov('27T23:00');
    const midnight = nov('28T00:00');
    const saturday = nov('28T01:00');
    expect(businessSeconds(friday, saturday, LATE_NIGHT, ZONE)).toBe(2 * HOUR);
    expect(businessSeconds(friday, midnight, LATE_NIGHT, ZONE)).toBe(HOUR);
    expect(businessSeconds(midnight, saturday, LATE_NIGHT, ZONE)).toBe(HOUR);
    expect(businessSeconds(nov('27T12:00'), nov('28T12:00'), LATE_NIGHT, ZONE)).toBe(8 * HOUR);
  });

  it('counts a period once however the interval is split', () => {
    const points = ['23T08:00', '23T10:17', '23T12:30', '24T00:00', '24T16:59', '25T09:00'].map(nov);
    const pieces = points
      .slice(1)
      .reduce((total, to, i) => total + businessSeconds(points[i]!, to, OFFICE, ZONE), 0);
    expect(pieces).toBe(businessSeconds(points[0]!, points.at(-1)!, OFFICE, ZONE));
  });

  it('leaves out a holiday, a calendar day in the location’s zone', () => {
    const monday = '2026-11-23';
    expect(businessSeconds(nov('23T08:00'), nov('24T18:00'), OFFICE, ZONE, [monday])).toBe(7 * HOUR);
    // 10:00 Monday in Melbourne is still Sunday in UTC; the holiday is Melbourne's Monday all the same.
    expect(businessSeconds(nov('23T10:00'), nov('23T11:00'), OFFICE, ZONE, [monday])).toBe(0);
    expect(businessSeconds(nov('23T10:00'), nov('23T11:00'), OFFICE, ZONE, ['2026-11-22'])).toBe(HOUR);
  });

  describe('without hours (always open)', () => {
    it.each([
      { when: 'a weekend', from: nov('28T10:00'), to: nov('30T10:00') },
      { when: 'a night', from: nov('23T22:30'), to: nov('24T03:15') },
      {
        when: 'a whole year, both daylight-saving changes included',
        from: new Date('2026-01-01T00:00+11:00'),
        to: new Date('2027-01-01T00:00+11:00'),
      },
    ])('counts every second over $when', ({ from, to }) => {
      expect(businessSeconds(from, to, null, ZONE)).toBe((to.getTime() - from.getTime()) / 1000);
    });

    it('still closes all day on a holiday, even the 25-hour day daylight saving ends on', () => {
      const from = new Date('2026-04-04T00:00+11:00');
      const to = new Date('2026-04-06T00:00+10:00');
      expect(businessSeconds(from, to, null, ZONE)).toBe(49 * HOUR);
      expect(businessSeconds(from, to, null, ZONE, ['2026-04-05'])).toBe(24 * HOUR);
      expect(businessSeconds(from, to, null, ZONE, ['2026-04-04'])).toBe(25 * HOUR);
    });
  });

  describe('across daylight saving in Melbourne', () => {
    it('counts 01:00–04:00 as 4 real hours on the day the clocks go back (first Sunday of April)', () => {
      const from = new Date('2026-04-04T12:00+11:00');
      const to = new Date('2026-04-05T12:00+10:00');
      expect(businessSeconds(from, to, SMALL_HOURS, ZONE)).toBe(4 * HOUR);
      expect(openSecondsIn('2026-04-05', SMALL_HOURS, ZONE)).toBe(4 * HOUR);
    });

    it('counts 01:00–04:00 as 2 real hours on the day the clocks go forward (first Sunday of October)', () => {
      const from = new Date('2026-10-03T12:00+10:00');
      const to = new Date('2026-10-04T12:00+11:00');
      expect(businessSeconds(from, to, SMALL_HOURS, ZONE)).toBe(2 * HOUR);
      expect(openSecondsIn('2026-10-04', SMALL_HOURS, ZONE)).toBe(2 * HOUR);
    });

    it('cuts a period at an instant inside it, on either side of the change', () => {
      // 02:30 first comes round at +11:00 in April; the clocks then go back to 02:00 at +10:00.
      const april = { from: new Date('2026-04-05T02:30+11:00'), to: new Date('2026-04-05T12:00+10:00') };
      expect(businessSeconds(april.from, april.to, SMALL_HOURS, ZONE)).toBe(2.5 * HOUR);
      // 01:30 in October is half an hour before the clocks jump from 02:00 to 03:00.
      const october = { from: new Date('2026-10-04T01:30+10:00'), to: new Date('2026-10-04T12:00+11:00') };
      expect(businessSeconds(october.from, october.to, SMALL_HOURS, ZONE)).toBe(1.5 * HOUR);
    });

    it('opens at the jump when the opening time is one the clocks skip', () => {
      // 02:30 never shows on 4 October 2026; from 03:00 (the jump) the clock reads later than it.
      expect(openSecondsIn('2026-10-04', sundays([{ open: '02:30', close: '04:00' }]), ZONE)).toBe(HOUR);
      expect(openSecondsIn('2026-10-04', sundays([{ open: '01:00', close: '02:30' }]), ZONE)).toBe(HOUR);
      expect(openSecondsIn('2026-10-04', sundays([{ open: '02:15', close: '02:45' }]), ZONE)).toBe(0);
    });

    it('takes the first showing of a time the clocks show twice', () => {
      // 02:00–03:00 shows twice on 5 April 2026: 01:00–02:30 ends at the first 02:30.
      expect(openSecondsIn('2026-04-05', sundays([{ open: '01:00', close: '02:30' }]), ZONE)).toBe(
        1.5 * HOUR,
      );
      expect(openSecondsIn('2026-04-05', sundays([{ open: '02:30', close: '03:00' }]), ZONE)).toBe(
        1.5 * HOUR,
      );
      // The same rule west of Greenwich: 01:00–02:00 shows twice in New York on 1 November 2026.
      expect(
        openSecondsIn('2026-11-01', sundays([{ open: '00:30', close: '01:30' }]), 'America/New_York'),
      ).toBe(HOUR);
    });

    it('counts whole days without hours as 25 and 23 hours', () => {
      expect(openSecondsIn('2026-04-05', null, ZONE)).toBe(25 * HOUR);
      expect(openSecondsIn('2026-10-04', null, ZONE)).toBe(23 * HOUR);
      expect(openSecondsIn('2026-04-06', null, ZONE)).toBe(24 * HOUR);
    });
  });

  it('adds up 13 weeks (91 days) of weekdays, part days at both ends', () => {
    // Monday 1 June to Monday 31 August 2026: no daylight-saving change in Melbourne winter.
    const from = winter('06-01T10:00');
    const to = winter('08-31T15:00');
    const fullWeeks = 13 * 5 * 7;
    const firstMondayMissed = 1; // 09:00–10:00
    const lastMondayCounted = 3 + 2; // 09:00–12:00 and 13:00–15:00
    expect(businessSeconds(from, to, OFFICE, ZONE)).toBe(
      (fullWeeks - firstMondayMissed + lastMondayCounted) * HOUR,
    );
    // Two Monday holidays (the King's Birthday on 8 June, and 17 August) cost a day each; a Sunday one costs nothing.
    expect(businessSeconds(from, to, OFFICE, ZONE, ['2026-06-08', '2026-08-17', '2026-08-16'])).toBe(
      (fullWeeks - firstMondayMissed + lastMondayCounted - 2 * 7) * HOUR,
    );
  });

  it('matches the day-by-day sum over 90 days that cross a daylight-saving change', () => {
    // 2026-09-01 to 2026-11-30: clocks go forward on Sunday 4 October, a day the office is closed anyway.
    const days = Array.from({ length: 90 }, (_, i) =>
      new Date(Date.UTC(2026, 8, 1 + i)).toISOString().slice(0, 10),
    );
    const perDay = days.reduce((total, day) => total + openSecondsIn(day, OFFICE, ZONE), 0);
    const weekdays = days.filter((day) => ![0, 6].includes(new Date(day).getUTCDay())).length;
    expect(perDay).toBe(weekdays * 7 * HOUR);
    const from = new Date('2026-09-01T00:00+10:00');
    const to = new Date('2026-11-30T00:00+11:00');
    expect(businessSeconds(from, to, OFFICE, ZONE)).toBe(perDay);
  });

  it('throws on an instant that is not a date', () => {
    expect(() => businessSeconds(new Date('nonsense'), nov('23T10:00'), OFFICE, ZONE)).toThrow(RangeError);
  });
});

describe('openSecondsIn', () => {
  it.each([
    { day: '2026-11-23', what: 'a weekday with a lunch break', hours: 7 },
    { day: '2026-11-28', what: 'a Saturday with no periods', hours: 0 },
  ])('counts $what', ({ day, hours }) => {
    expect(openSecondsIn(day, OFFICE, ZONE)).toBe(hours * HOUR);
  });

  it('counts a holiday as closed, with or without hours', () => {
    expect(openSecondsIn('2026-11-23', OFFICE, ZONE, ['2026-11-23'])).toBe(0);
    expect(openSecondsIn('2026-11-23', null, ZONE, ['2026-11-23'])).toBe(0);
  });

  it('counts overlapping periods once', () => {
    const overlapping = sundays([
      { open: '09:00', close: '13:00' },
      { open: '12:00', close: '17:00' },
      { open: '10:00', close: '11:00' },
    ]);
    expect(openSecondsIn('2026-11-22', overlapping, ZONE)).toBe(8 * HOUR);
  });

  it('throws on a day that is not a calendar day', () => {
    expect(() => openSecondsIn('2026-02-30', OFFICE, ZONE)).toThrow(RangeError);
  });
});

describe('bucketStart', () => {
  it.each([
    // 14:30 UTC on 31 March is 01:30 on Wednesday 1 April in Melbourne (+11:00).
    { at: '2026-03-31T14:30:00Z', unit: 'day', start: '2026-04-01' },
    { at: '2026-03-31T14:30:00Z', unit: 'week', start: '2026-03-30' },
    { at: '2026-03-31T14:30:00Z', unit: 'month', start: '2026-04-01' },
    // A minute before midnight in Melbourne it is still 31 March there.
    { at: '2026-03-31T12:59:00Z', unit: 'day', start: '2026-03-31' },
    { at: '2026-03-31T12:59:00Z', unit: 'month', start: '2026-03-01' },
    // Midnight starting Monday 23 November in Melbourne is Sunday in UTC.
    { at: '2026-11-22T13:00:00Z', unit: 'week', start: '2026-11-23' },
    { at: '2026-11-22T12:59:59Z', unit: 'week', start: '2026-11-16' },
    // Sunday belongs to the week that began the Monday before.
    { at: '2026-11-29T12:00:00Z', unit: 'week', start: '2026-11-23' },
    // A week that starts in one month and year and ends in the next.
    { at: '2027-01-02T01:00:00Z', unit: 'week', start: '2026-12-28' },
    { at: '2026-12-31T13:00:00Z', unit: 'month', start: '2027-01-01' },
  ] as const)('puts $at in the $unit starting $start', ({ at, unit, start }) => {
    expect(bucketStart(new Date(at), unit, ZONE)).toBe(start);
  });

  it('reads the day in the zone it is given', () => {
    expect(bucketStart(new Date('2026-03-31T14:30:00Z'), 'day', 'UTC')).toBe('2026-03-31');
    expect(bucketStart(new Date('2026-03-31T14:30:00Z'), 'month', 'America/New_York')).toBe('2026-03-01');
  });
});

describe('bucketDays', () => {
  it.each([
    {
      when: 'days over the end of February',
      start: '2026-02-27',
      end: '2026-03-02',
      unit: 'day',
      buckets: ['2026-02-27', '2026-02-28', '2026-03-01', '2026-03-02'],
    },
    {
      when: 'days over the end of February in a leap year',
      start: '2028-02-28',
      end: '2028-03-01',
      unit: 'day',
      buckets: ['2028-02-28', '2028-02-29', '2028-03-01'],
    },
    {
      when: 'weeks from a Wednesday to a Tuesday two weeks on',
      start: '2026-11-25',
      end: '2026-12-08',
      unit: 'week',
      buckets: ['2026-11-23', '2026-11-30', '2026-12-07'],
    },
    {
      when: 'months from the last day of January, through short February',
      start: '2026-01-31',
      end: '2026-04-01',
      unit: 'month',
      buckets: ['2026-01-01', '2026-02-01', '2026-03-01', '2026-04-01'],
    },
    {
      when: 'months over the new year',
      start: '2026-11-15',
      end: '2027-02-28',
      unit: 'month',
      buckets: ['2026-11-01', '2026-12-01', '2027-01-01', '2027-02-01'],
    },
    { when: 'a single day', start: '2026-04-05', end: '2026-04-05', unit: 'day', buckets: ['2026-04-05'] },
    {
      when: 'two days in one week',
      start: '2026-11-24',
      end: '2026-11-29',
      unit: 'week',
      buckets: ['2026-11-23'],
    },
    { when: 'an end before the start', start: '2026-04-06', end: '2026-04-05', unit: 'day', buckets: [] },
  ] as const)('lists every bucket start for $when', ({ start, end, unit, buckets }) => {
    expect(bucketDays(start, end, unit)).toEqual(buckets);
  });

  it('lists 92 days for a quarter of 31, 31 and 30 days', () => {
    const days = bucketDays('2026-07-01', '2026-09-30', 'day');
    expect(days).toHaveLength(92);
    expect(days.at(0)).toBe('2026-07-01');
    expect(days.at(-1)).toBe('2026-09-30');
    expect(new Set(days).size).toBe(92);
  });

  it.each([
    { start: '2026-04-31', end: '2026-05-01' },
    { start: '2026-04-01', end: 'today' },
  ])('throws on $start to $end', ({ start, end }) => {
    expect(() => bucketDays(start, end, 'day')).toThrow(RangeError);
  });
});
