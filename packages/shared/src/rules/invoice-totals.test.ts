import { describe, expect, it } from 'vitest';
import { formatRate, invoiceTotals } from './invoice-totals.ts';
import { formatMoney } from './money.ts';

describe('invoiceTotals', () => {
  it('rounds each line half up to the cent and adds the lines', () => {
    const t = invoiceTotals([
      { quantity: 1.5, unit_price_cents: 1999, tax_rate: 10 }, // 2998.5 → 2999; tax 299.9 → 300
      { quantity: 3, unit_price_cents: 333, tax_rate: 0 },
    ]);
    expect(t.lines).toEqual([
      { amount_cents: 2999, tax_cents: 300 },
      { amount_cents: 999, tax_cents: 0 },
    ]);
    expect(t).toMatchObject({ subtotal_cents: 3998, tax_cents: 300, surcharge_cents: 0, total_cents: 4298 });
  });

  it('keeps cents exact where floating point would drift', () => {
    // 0.1 × 3 is 0.30000000000000004 in floating point; 1.005 × 100 is 100.49999999999999.
    const t = invoiceTotals([
      { quantity: 0.1, unit_price_cents: 3, tax_rate: 0 },
      { quantity: 1.005, unit_price_cents: 100, tax_rate: 0 },
    ]);
    expect(t.lines.map((l) => l.amount_cents)).toEqual([0, 101]);
  });

  it('adds the card surcharge as a rate of subtotal plus tax', () => {
    const t = invoiceTotals([{ quantity: 1, unit_price_cents: 10000, tax_rate: 10 }], 150);
    expect(t).toMatchObject({
      subtotal_cents: 10000,
      tax_cents: 1000,
      surcharge_cents: 165,
      total_cents: 11165,
    });
  });

  it('takes tax rates with two decimals', () => {
    const t = invoiceTotals([{ quantity: 2, unit_price_cents: 5000, tax_rate: 8.25 }]);
    expect(t.tax_cents).toBe(825);
  });
});

describe('formatMoney and formatRate', () => {
  it('prints cents in the currency', () => {
    expect(formatMoney(123450, 'aud')).toBe('$1,234.50');
    expect(formatMoney(1200, 'USD')).toBe('USD\u00a012.00');
  });
  it('prints basis points as a percentage', () => {
    expect(formatRate(150)).toBe('1.5%');
    expect(formatRate(1000)).toBe('10%');
    expect(formatRate(175)).toBe('1.75%');
  });
});
