import type { z } from 'zod';
import type { PublicInvoice } from '../contracts/invoices.ts';
import { invoiceTotals } from './invoice-totals.ts';
import { chargeStep, minorUnits } from './money.ts';
import { invoiceTitle, taxRulesOf } from './tax-rules.ts';

type Look = {
  accent_color: string;
  font: string;
  footer: string | null;
  payment_terms: string | null;
  tax_id: string | null;
  currency: string;
  number_prefix: string;
  logo_url: string | null;
};

/** A made-up invoice in a business's branding: what the settings page previews as the pay page and as a PDF. */
export function sampleInvoice(
  look: Look,
  businessName: string,
  country: string | null = null,
  today = new Date(),
): z.input<typeof PublicInvoice> {
  const rules = taxRulesOf(country);
  // Prices of a sample's size in any currency: A$120.00, ¥120, KWD 120.000.
  const scale = 10 ** (minorUnits(look.currency) - 2);
  const lines = [
    { description: 'Service and parts', quantity: 1, unit_price_cents: 12000 * scale, tax_rate: 10 },
    { description: 'Follow-up visit', quantity: 2, unit_price_cents: 4500 * scale, tax_rate: 10 },
  ];
  const totals = invoiceTotals(lines, 0, chargeStep(look.currency));
  const items = lines.map((line, i) => ({
    ...line,
    amount_cents: totals.lines[i]?.amount_cents ?? 0,
    tax_cents: totals.lines[i]?.tax_cents ?? 0,
  }));
  return {
    number: `${look.number_prefix}0042`,
    status: 'sent',
    bill_to: 'Alex Sample',
    currency: look.currency,
    items,
    subtotal_cents: totals.subtotal_cents,
    tax_cents: totals.tax_cents,
    surcharge_bps: 0,
    surcharge_cents: 0,
    total_cents: totals.total_cents,
    amount_paid_cents: 0,
    amount_refunded_cents: 0,
    amount_due_cents: totals.total_cents,
    due_date: new Date(today.getTime() + 14 * 86_400_000).toISOString().slice(0, 10),
    notes: 'Thank you for your business.',
    issued_at: today.toISOString(),
    paid_at: null,
    last_payment_error: null,
    can_pay: true,
    business: { name: businessName, location_name: null, address: null, phone: null, email: null },
    branding: {
      logo_url: look.logo_url,
      accent_color: look.accent_color,
      font: look.font,
      footer: look.footer,
      payment_terms: look.payment_terms,
      tax_id: look.tax_id,
    },
    document: {
      title: invoiceTitle(country, totals.tax_cents),
      tax_name: rules.tax_name,
      tax_number_label: rules.number_label,
    },
    pdf_url: '',
  };
}
