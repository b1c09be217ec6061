import type { z } from 'zod';
import type { PublicInvoice } from '../contracts/invoices.ts';

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
  today = new Date(),
): z.input<typeof PublicInvoice> {
  return {
    number: `${look.number_prefix}0042`,
    status: 'sent',
    bill_to: 'Alex Sample',
    currency: look.currency,
    items: [
      {
        description: 'Service and parts',
        quantity: 1,
        unit_price_cents: 12000,
        tax_rate: 10,
        amount_cents: 12000,
        tax_cents: 1200,
      },
      {
        description: 'Follow-up visit',
        quantity: 2,
        unit_price_cents: 4500,
        tax_rate: 10,
        amount_cents: 9000,
        tax_cents: 900,
      },
    ],
    subtotal_cents: 21000,
    tax_cents: 2100,
    surcharge_bps: 0,
    surcharge_cents: 0,
    total_cents: 23100,
    amount_paid_cents: 0,
    amount_refunded_cents: 0,
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
    pdf_url: '',
  };
}
