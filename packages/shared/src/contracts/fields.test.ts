import { describe, expect, it } from 'vitest';
import { formatPhoneAsTyped, normalisePhone } from './fields.ts';

describe('phone numbers as people type and paste them', () => {
  it.each([
    ['04', '04'],
    ['0412345', '0412 345'],
    ['0412345678', '0412 345 678'],
    ['+61412345678', '+61 412 345 678'],
    // Pasted with other punctuation: spaced the country's way.
    ['(04) 1234-5678', '0412 345 678'],
    ['+1 (415) 555-0100', '+1 415 555 0100'],
    // Keys a phone menu wants are kept as typed.
    ['12#', '12#'],
    ['', ''],
  ])('%s → %s', (typed, shown) => {
    expect(formatPhoneAsTyped(typed)).toBe(shown);
  });

  it('reads a number in the business country when it has no country code', () => {
    expect(normalisePhone('0412 345 678')).toBe('+61412345678');
    expect(normalisePhone('12')).toBeUndefined();
  });
});
