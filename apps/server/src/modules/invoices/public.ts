import { businesses, invoices, locations } from '@switchboard/db';
import {
  invoiceTitle,
  PAYABLE_INVOICE_STATUSES,
  type PublicInvoiceDto,
  taxRulesOf,
} from '@switchboard/shared';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { amountDue } from './ledger.ts';
import { invoiceBySecret } from './payments.ts';
import { brandingOf, type InvoiceRow, type ItemRow, invoiceDto, itemsOf, toItemDto } from './service.ts';

export type PublicInvoiceParts = {
  invoice: InvoiceRow;
  items: ItemRow[];
  branding: Awaited<ReturnType<typeof brandingOf>>;
  page: PublicInvoiceDto;
};

/** How the document reads in the business's country: a tax invoice only when it charges tax. */
function documentOf(country: string | null, taxCents: number): PublicInvoiceDto['document'] {
  const rules = taxRulesOf(country);
  return {
    title: invoiceTitle(country, taxCents),
    tax_name: rules.tax_name,
    tax_number_label: rules.number_label,
  };
}

/**
 * What the customer's pay page and PDF show: the business (name, the location's contact details), its
 * branding, the invoice's lines and totals and its state. Nothing about staff, the conversation or any other
 * invoice.
 */
export async function publicInvoiceParts(
  app: FastifyInstance,
  invoice: InvoiceRow,
): Promise<PublicInvoiceParts> {
  const [business] = await app.db.select().from(businesses).where(eq(businesses.id, invoice.business_id));
  const [location] = invoice.location_id
    ? await app.db.select().from(locations).where(eq(locations.id, invoice.location_id))
    : [];
  const branding = await brandingOf(app.db, invoice.business_id);
  const items = await itemsOf(app.db, invoice.id);
  const payable = PAYABLE_INVOICE_STATUSES.includes(invoice.status);
  const page: PublicInvoiceDto = {
    number: invoice.number,
    status: invoice.status,
    bill_to: invoice.bill_to,
    currency: invoice.currency,
    items: items.map(toItemDto),
    subtotal_cents: invoice.subtotal_cents,
    tax_cents: invoice.tax_cents,
    surcharge_bps: invoice.surcharge_bps,
    surcharge_cents: invoice.surcharge_cents,
    total_cents: invoice.total_cents,
    amount_paid_cents: invoice.amount_paid_cents,
    amount_refunded_cents: invoice.amount_refunded_cents,
    amount_due_cents: amountDue(invoice),
    due_date: invoice.due_date,
    notes: invoice.notes,
    issued_at: invoice.sent_at ?? invoice.created_at,
    paid_at: invoice.paid_at,
    last_payment_error: invoice.last_payment_error,
    can_pay:
      payable && Boolean(app.payments && business?.stripe_account_id && business.stripe_charges_enabled),
    business: {
      name: business?.name ?? '',
      location_name: location?.name ?? null,
      address: location?.address ?? null,
      phone: location?.phone_number ?? null,
      email: location?.email_address ?? null,
    },
    branding: {
      logo_url: branding.logo,
      accent_color: branding.accent_color,
      font: branding.font,
      footer: branding.footer,
      payment_terms: branding.payment_terms,
      tax_id: branding.tax_id,
    },
    document: documentOf(business?.country ?? null, invoice.tax_cents),
    pdf_url: `/api/v1/business/invoices/secret/${invoice.secret}/pdf`,
  };
  return { invoice, items, branding, page };
}

/**
 * `GET /business/invoices/secret/{id}`: the pay page's data. The customer opening a sent invoice marks it
 * viewed (staff previewing it from the app pass `preview`).
 */
export async function publicInvoice(
  app: FastifyInstance,
  secret: string,
  preview: boolean,
): Promise<PublicInvoiceDto> {
  let invoice = await invoiceBySecret(app, secret);
  if (!preview && invoice.status === 'sent') {
    const [viewed] = await app.db
      .update(invoices)
      .set({ status: 'viewed', viewed_at: new Date() })
      .where(and(eq(invoices.id, invoice.id), eq(invoices.status, 'sent')))
      .returning();
    if (viewed) {
      invoice = viewed;
      app.events.emit('invoice.updated', {
        business_id: viewed.business_id,
        invoice: await invoiceDto(app.db, app.config.publicUrl, viewed),
      });
    }
  }
  return (await publicInvoiceParts(app, invoice)).page;
}
