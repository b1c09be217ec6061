import { describe, expect, it } from 'vitest';
import { trialEndDate, trialRemainingDays } from './trial-days.ts';

// Melbourne is UTC+10 (AEST) or UTC+11 (AEDT). In 2024 daylight saving ended at 03:00 on Sunday 7 April
// (a 25-hour day) and started at 02:00 on Sunday 6 October (a 23-hour day).
describe('Trial remaining days: "whole days from the start of today in Australia/Melbourne to the trial end date plus 11 hours"', () => {
  it.each([
    // trial end 2024-05-10 is 2024-05-10T11:00Z with the offset, 21:00 in Melbourne that day
    { when: 'two days before the last day', end: '2024-05-10', now: '2024-05-08T02:00:00Z', days: 2 },
    {
      when: 'the last second of the day before',
      end: '2024-05-10',
      now: '2024-05-09T13:59:59.999Z',
      days: 1,
    },
    { when: 'the first instant of the last day', end: '2024-05-10', now: '2024-05-09T14:00:00Z', days: 0 },
    { when: 'late on the last day', end: '2024-05-10', now: '2024-05-10T13:00:00Z', days: 0 },
    { when: 'the first instant of the day after', end: '2024-05-10', now: '2024-05-10T14:00:00Z', days: -1 },
    { when: 'ten days after', end: '2024-05-10', now: '2024-05-20T02:00:00Z', days: -10 },
    {
      when: 'a Date instead of a string',
      end: new Date('2024-05-10T00:00:00Z'),
      now: '2024-05-08T02:00:00Z',
      days: 2,
    },
    {
      when: 'a timestamp with an offset',
      end: '2024-05-10T10:00:00+10:00',
      now: '2024-05-08T02:00:00Z',
      days: 2,
    },
  ])('counts $days on $when', ({ end, now, days }) => {
    expect(trialRemainingDays(end, new Date(now))).toBe(days);
  });

  it.each([
    // Today started at 2024-04-06T13:00Z (midnight AEDT) although it is now 23:30 AEST.
    { when: 'exactly at the start of a 25-hour day', end: '2024-04-06T02:00:00Z', days: 0 },
    { when: 'one millisecond before the start of a 25-hour day', end: '2024-04-06T01:59:59.999Z', days: -1 },
    { when: 'the evening of a 25-hour day', end: '2024-04-07', days: 0 },
  ])('counts $days with the trial end $when, late on the day daylight saving ends', ({ end, days }) => {
    expect(trialRemainingDays(end, new Date('2024-04-07T13:30:00Z'))).toBe(days);
  });

  it.each([
    // Today started at 2024-10-05T14:00Z (midnight AEST); 24 elapsed hours later is 01:00 AEDT tomorrow.
    { when: '24 hours after the start of a 23-hour day', end: '2024-10-06T03:00:00Z', days: 1 },
    {
      when: 'just under 24 hours after the start of a 23-hour day',
      end: '2024-10-06T02:59:59.999Z',
      days: 0,
    },
  ])('counts $days with the trial end $when, on the day daylight saving starts', ({ end, days }) => {
    expect(trialRemainingDays(end, new Date('2024-10-06T12:30:00Z'))).toBe(days);
  });

  it('rejects a trial end date that is not a date', () => {
    expect(() => trialRemainingDays('soon', new Date('2024-05-08T02:00:00Z'))).toThrow(RangeError);
  });
});

describe('a trial of 14 days reads 14 on its sign-up day and ends after its last day', () => {
  const melbourne = (day: string, time: string) => {
    // A wall-clock time in Melbourne, found by trying both of its offsets.
    for (const offset of ['+10:00', '+11:00']) {
      const at = new Date(`${day}T${time}${offset}`);
      const shown = new Intl.DateTimeFormat('en-CA', {
        timeZone: 'Australia/Melbourne',
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
      })
        .format(at)
        .replace(', ', 'T');
      if (shown === `${day}T${time}`) return at;
    }
    throw new Error(`${day} ${time} is not a Melbourne time`);
  };
  const plus = (day: string, n: number) =>
    new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

  // Plain weeks, then a trial across the end of daylight saving (7 April 2024) and one across its start (6 October).
  it.each(['2024-05-01', '2024-03-28', '2024-09-28'])('signed up on %s', (day) => {
    for (const time of ['00:05', '12:59', '13:01', '23:55']) {
      const end = trialEndDate(melbourne(day, time), 14);
      for (const later of ['00:05', '12:00', '23:55']) {
        expect(trialRemainingDays(end, melbourne(day, later))).toBe(14);
        expect(trialRemainingDays(end, melbourne(plus(day, 13), later))).toBe(1);
        expect(trialRemainingDays(end, melbourne(plus(day, 14), later))).toBe(0);
        expect(trialRemainingDays(end, melbourne(plus(day, 15), later))).toBe(-1);
      }
    }
  });
});
