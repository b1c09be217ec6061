import { Readable } from 'node:stream';
import { formatDecimal, INVOICE_STATUS_LABELS, type InvoicesExportQuery } from '@switchboard/shared';
import { stringify } from 'csv-stringify';
import type { z } from 'zod';
import type { Context } from '../../context.ts';
import { requireBusiness } from '../../plugins/auth.ts';
import { businessTimezone } from '../enquiries/service.ts';
import { amountDue } from './ledger.ts';
import { invoicesForExport } from './service.ts';

const COLUMNS = [
  'Number',
  'Status',
  'Issued',
  'Due',
  'Customer',
  'Location',
  'Currency',
  'Subtotal',
  'Tax',
  'Card surcharge',
  'Total',
  'Paid',
  'Left to pay',
  'Refunded',
  'Paid on',
  'Items',
];

/**
 * `GET /business/customer-invoices/export`: every invoice the list's filters match, as CSV for a spreadsheet:
 * a byte-order mark so Excel reads it as UTF-8, and cells that a spreadsheet would run as a formula (`=`, `+`,
 * `-`, `@`, tab, return) made plain text. Streamed a batch of rows at a time.
 */
export async function exportInvoices(
  ctx: Context,
  query: z.output<typeof InvoicesExportQuery>,
): Promise<Readable> {
  const a = requireBusiness(ctx.actor);
  const tz = await businessTimezone(ctx.db, a.business_id);
  const day = (d: Date | null) =>
    d
      ? new Intl.DateTimeFormat('en-CA', {
          timeZone: tz,
          year: 'numeric',
          month: '2-digit',
          day: '2-digit',
        }).format(d)
      : '';
  async function* rows() {
    for await (const { invoice, location_name, items } of invoicesForExport(ctx, query)) {
      // In the currency's own decimals: 1234.50 AUD, 1000 JPY, 5.120 KWD.
      const amount = (minor: number) => formatDecimal(minor, invoice.currency);
      yield [
        invoice.number,
        INVOICE_STATUS_LABELS[invoice.status],
        day(invoice.sent_at ?? invoice.created_at),
        invoice.due_date ?? '',
        invoice.bill_to ?? '',
        location_name ?? '',
        invoice.currency,
        amount(invoice.subtotal_cents),
        amount(invoice.tax_cents),
        amount(invoice.surcharge_cents),
        amount(invoice.total_cents),
        amount(invoice.amount_paid_cents),
        amount(amountDue(invoice)),
        amount(invoice.amount_refunded_cents),
        day(invoice.paid_at),
        items
          .map((i) => (Number(i.quantity) === 1 ? i.description : `${i.description} × ${Number(i.quantity)}`))
          .join('; '),
      ];
    }
  }
  return Readable.from(rows()).pipe(
    stringify({ header: true, columns: COLUMNS, bom: true, escape_formulas: true }),
  );
}
