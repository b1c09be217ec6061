/**
 * One invoice line as written: quantity (up to 3 decimals), unit price in the currency's minor units (the
 * `_cents` fields hold minor units: cents, yen, fils), tax rate in percent.
 */
export type InvoiceLineInput = { quantity: number; unit_price_cents: number; tax_rate: number };

export type InvoiceTotals = {
  lines: { amount_cents: number; tax_cents: number }[];
  subtotal_cents: number;
  tax_cents: number;
  surcharge_cents: number;
  total_cents: number;
};

/** Percent (10, 1.5) to basis points (1000, 150), exactly: rates carry at most two decimals. */
export function percentToBps(percent: number): number {
  return Math.round(percent * 100);
}

/**
 * An invoice's amounts in integer minor units. Each line's amount is quantity × unit price and its tax that
 * amount × rate, each rounded half up to `step` minor units (the currency's `chargeStep`: 1, a cent, for most;
 * the way the line is printed, so the lines add up to the totals); the card surcharge is a rate of subtotal +
 * tax, a line of its own. Quantities are counted in thousandths and rates in basis points so every product is
 * an integer before its one division.
 */
export function invoiceTotals(lines: InvoiceLineInput[], surchargeBps = 0, step = 1): InvoiceTotals {
  const round = (numerator: number, denominator: number) =>
    Math.round(numerator / (denominator * step)) * step;
  const computed = lines.map((line) => {
    const thousandths = Math.round(line.quantity * 1000);
    const amount = round(thousandths * line.unit_price_cents, 1000);
    const tax = round(amount * percentToBps(line.tax_rate), 10_000);
    return { amount_cents: amount, tax_cents: tax };
  });
  const subtotal = computed.reduce((sum, l) => sum + l.amount_cents, 0);
  const tax = computed.reduce((sum, l) => sum + l.tax_cents, 0);
  const surcharge = round((subtotal + tax) * surchargeBps, 10_000);
  return {
    lines: computed,
    subtotal_cents: subtotal,
    tax_cents: tax,
    surcharge_cents: surcharge,
    total_cents: subtotal + tax + surcharge,
  };
}

/** A rate in basis points as people read it: 150 → `1.5%`. */
export function formatRate(bps: number): string {
  return `${Number((bps / 100).toFixed(2))}%`;
}
