import { describe, expect, it } from 'vitest';
import { isSendingTime, nextSendingTime } from './sending-hours.ts';

const MEL = 'Australia/Melbourne';

describe('nextSendingTime', () => {
  it('keeps a time inside 9:00–20:00 local', () => {
    const at = new Date('2026-11-26T03:00:00Z'); // 14:00 in Melbourne (UTC+11)
    expect(nextSendingTime(at, MEL)).toEqual(at);
    expect(isSendingTime(at, MEL)).toBe(true);
  });

  it('moves an early-morning time to 9:00 the same day', () => {
    const at = new Date('2026-11-25T18:30:00Z'); // 05:30 on the 26th in Melbourne
    expect(nextSendingTime(at, MEL).toISOString()).toBe('2026-11-25T22:00:00.000Z'); // 09:00 on the 26th
  });

  it('moves an evening time to 9:00 the next day', () => {
    const at = new Date('2026-11-26T09:00:00Z'); // 20:00 on the 26th in Melbourne
    expect(isSendingTime(at, MEL)).toBe(false);
    expect(nextSendingTime(at, MEL).toISOString()).toBe('2026-11-26T22:00:00.000Z'); // 09:00 on the 27th
  });

  it('follows daylight saving: 9:00 is 22:00 UTC in summer and 23:00 UTC in winter in Melbourne', () => {
    expect(nextSendingTime(new Date('2026-06-10T12:00:00Z'), MEL).toISOString()).toBe(
      '2026-06-10T23:00:00.000Z',
    );
  });

  it('works in zones behind UTC', () => {
    const at = new Date('2026-11-26T02:00:00Z'); // 21:00 on the 25th in New York
    expect(nextSendingTime(at, 'America/New_York').toISOString()).toBe('2026-11-26T14:00:00.000Z');
  });
});
