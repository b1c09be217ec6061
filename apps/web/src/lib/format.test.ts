import { afterEach, describe, expect, it } from 'vitest';
import { dayText, momentText } from './dates.ts';
import { localeFor, setBusinessCountry } from './locale.ts';
import { moneyText } from './money.ts';
import { phoneText } from './phones.ts';

afterEach(() => setBusinessCountry(null));

describe('dates, amounts and phone numbers are written as in the business’s country', () => {
  it('writes a due date, a paid date and a timestamp the same way', () => {
    setBusinessCountry('AU');
    expect(dayText('2026-12-12', 'short')).toBe('12 Dec 2026');
    expect(dayText('2026-11-28T12:00:00Z', 'short')).toBe('28 Nov 2026');
    expect(dayText('2027-03-03')).toBe('3 March 2027');
    setBusinessCountry('US');
    expect(dayText('2026-12-12', 'short')).toBe('Dec 12, 2026');
  });

  it('reads a calendar day as that day wherever the viewer is', () => {
    // The tests' time zone may be anything: a due date is the same day in every one.
    for (const day of ['2026-01-01', '2026-12-31']) {
      setBusinessCountry('GB');
      expect(dayText(day, 'short')).toBe(day === '2026-01-01' ? '1 Jan 2026' : '31 Dec 2026');
    }
  });

  it('writes amounts in the business’s locale', () => {
    setBusinessCountry('AU');
    expect(moneyText(12050, 'AUD')).toBe('$120.50');
    setBusinessCountry('US');
    expect(moneyText(12050, 'USD')).toBe('$120.50');
    expect(moneyText(12050, 'AUD')).toBe('A$120.50');
    setBusinessCountry('GB');
    expect(moneyText(12050, 'GBP')).toBe('£120.50');
  });

  it('writes a home number as dialled at home, and any other in international form', () => {
    setBusinessCountry('AU');
    expect(phoneText('+61412345678')).toBe('0412 345 678');
    expect(phoneText('+442079460958')).toBe('+44 20 7946 0958');
    expect(phoneText('not a number')).toBe('not a number');
    expect(phoneText(null)).toBe('');
    setBusinessCountry(null);
    expect(phoneText('+61412345678')).toBe('+61 412 345 678');
  });

  it('falls back to plain English for a country without its own English, and to the browser without one', () => {
    expect(localeFor('AU')).toBe('en-AU');
    expect(localeFor(null)).toBeUndefined();
    expect(localeFor('not a country')).toBeUndefined();
    setBusinessCountry('AU');
    expect(momentText('2026-11-28T12:05:00Z')).toMatch(/28 Nov 2026/);
  });
});
