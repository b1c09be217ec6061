import { describe, expect, it } from 'vitest';
import { invoiceTotals } from './invoice-totals.ts';
import {
  CURRENCIES,
  chargeStep,
  formatDecimal,
  formatMoney,
  fromStripeAmount,
  isCurrencyCode,
  minorUnits,
  toMajorUnits,
  toMinorUnits,
  toStripeAmount,
} from './money.ts';

describe('ISO 4217 currencies', () => {
  it('knows the active codes, and nothing that is not one', () => {
    for (const code of ['AUD', 'usd', 'JPY', 'KWD', 'BHD', 'ISK', 'HUF', 'VES', 'SLE', 'ZWG'])
      expect(isCurrencyCode(code), code).toBe(true);
    // Made up, crypto, withdrawn (HRK, SLL, ZWL), and ISO codes that are not money (gold, testing, none).
    for (const code of ['ZZZ', 'BTC', 'HRK', 'SLL', 'ZWL', 'XAU', 'XTS', 'XXX', 'CHE'])
      expect(isCurrencyCode(code), code).toBe(false);
    expect(CURRENCIES.length).toBeGreaterThan(150);
  });

  it.each([
    ['AUD', 2],
    ['JPY', 0],
    ['KRW', 0],
    ['KWD', 3],
    ['BHD', 3],
    ['ISK', 0],
    ['HUF', 2],
    ['UGX', 0],
  ])('%s has %i minor units', (code, digits) => {
    expect(minorUnits(code)).toBe(digits);
  });
});

describe('formatMoney', () => {
  it.each([
    [123450, 'aud', '$1,234.50'],
    [1200, 'USD', 'USD\u00a012.00'],
    [1000, 'JPY', 'JPY\u00a01,000'],
    [50000, 'KRW', 'KRW\u00a050,000'],
    [5120, 'KWD', 'KWD\u00a05.120'],
    [1500, 'BHD', 'BHD\u00a01.500'],
    [500, 'ISK', 'ISK\u00a0500'],
    [123450, 'HUF', 'HUF\u00a01,234.50'],
    // A code from before codes were checked still shows, in cents.
    [1234, 'ZZZ', 'ZZZ\u00a012.34'],
  ])('%i minor units of %s read %s', (minor, currency, text) => {
    expect(formatMoney(minor, currency)).toBe(text);
  });

  it('writes plain decimals for spreadsheets in the currency’s decimals', () => {
    expect(formatDecimal(123450, 'AUD')).toBe('1234.50');
    expect(formatDecimal(5, 'AUD')).toBe('0.05');
    expect(formatDecimal(1000, 'JPY')).toBe('1000');
    expect(formatDecimal(5120, 'KWD')).toBe('5.120');
    expect(formatDecimal(-250, 'AUD')).toBe('-2.50');
  });

  it('turns typed amounts into minor units and back', () => {
    expect(toMinorUnits(1.005, 'AUD')).toBe(101);
    expect(toMinorUnits(1000, 'JPY')).toBe(1000);
    expect(toMinorUnits(5.124, 'KWD')).toBe(5124);
    expect(toMajorUnits(123450, 'AUD')).toBe(1234.5);
    expect(toMajorUnits(1000, 'JPY')).toBe(1000);
  });
});

describe('card amounts at Stripe (docs.stripe.com/currencies)', () => {
  it.each([
    // Zero-decimal: the amount is the number of yen / won.
    ['JPY', 1000, 1000],
    ['KRW', 50000, 50000],
    // Two-decimal: cents.
    ['AUD', 1250, 1250],
    // HUF and TWD are charged with two decimals (their special case is payouts).
    ['HUF', 123450, 123450],
    // Three-decimal: thousandths, the last digit 0.
    ['KWD', 5120, 5120],
    ['BHD', 1500, 1500],
    // ISK and UGX: no minor unit, but Stripe takes hundredths that are whole units.
    ['ISK', 500, 50000],
    ['UGX', 60000, 6000000],
  ])('%s: %i minor units is amount %i', (currency, minor, amount) => {
    expect(toStripeAmount(minor, currency)).toBe(amount);
    expect(fromStripeAmount(amount, currency)).toBe(minor);
  });

  it('charges in the steps Stripe takes', () => {
    expect(chargeStep('AUD')).toBe(1);
    expect(chargeStep('JPY')).toBe(1);
    expect(chargeStep('ISK')).toBe(1);
    expect(chargeStep('KWD')).toBe(10);
    expect(chargeStep('BHD')).toBe(10);
    // ISO gives the ariary two decimals, Stripe none: whole ariary.
    expect(chargeStep('MGA')).toBe(100);
    expect(toStripeAmount(12300, 'MGA')).toBe(123);
    expect(() => toStripeAmount(5124, 'KWD')).toThrow(RangeError);
  });

  it('rounds a three-decimal invoice to tens of fils, so the card is charged exactly its total', () => {
    const t = invoiceTotals([{ quantity: 3, unit_price_cents: 1234, tax_rate: 0 }], 0, chargeStep('KWD'));
    // 3 × 1.234 = 3.702 → 3.700.
    expect(t.total_cents).toBe(3700);
    expect(toStripeAmount(t.total_cents, 'KWD')).toBe(3700);
  });
});
