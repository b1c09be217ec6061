import { randomBytes } from 'node:crypto';
import {
  customers,
  type DbOrTx,
  enquiries,
  invoiceBranding,
  invoiceItems,
  invoices,
  locations,
} from '@switchboard/db';
import {
  chargeStep,
  formatMoney,
  INVOICE_MAX_CENTS,
  type InvoiceDto,
  type InvoiceItemInput,
  type InvoicePatchRequest,
  type InvoiceRequest,
  type InvoicesQuery,
  invoiceTotals,
  isUuid,
  type PageOf,
  percentToBps,
} from '@switchboard/shared';
import { and, asc, desc, eq, exists, ilike, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Context } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { atTheirLocations, type BusinessActor, requireBusiness, requireOwner } from '../../plugins/auth.ts';
import { customersTheySee } from '../customers/scope.ts';
import { businessTimezone } from '../enquiries/service.ts';
import { assertOwnLocation } from '../locations/service.ts';
import { closeCheckout, prepareCheckoutClosing } from './checkout.ts';
import { amountDue, needsRefund, type PaymentRow, paymentsOf } from './ledger.ts';
import {
  assertInvoiceLocationFor,
  defaultInvoiceLocation,
  type InvoiceScope,
  invoicesTheySee,
} from './scope.ts';

export type InvoiceRow = typeof invoices.$inferSelect;
export type ItemRow = typeof invoiceItems.$inferSelect;
type Ctx = Pick<Context, 'db' | 'actor' | 'config' | 'events' | 'jobs'>;
type CreateInput = z.output<typeof InvoiceRequest>;
type PatchInput = z.output<typeof InvoicePatchRequest>;
type ListFilters = z.output<typeof InvoicesQuery>;

export const invoiceNotFound = () => new AppError('not_found', 'Invoice not found.');

/** The customer's pay page for an invoice. */
export function payUrl(publicUrl: string, secret: string): string {
  return `${publicUrl}/pay/${secret}`;
}

export function toItemDto(item: ItemRow) {
  return {
    description: item.description,
    quantity: Number(item.quantity),
    unit_price_cents: item.unit_price_cents,
    tax_rate: item.tax_rate_bps / 100,
    amount_cents: item.amount_cents,
    tax_cents: item.tax_cents,
  };
}

export function toInvoiceDto(
  publicUrl: string,
  row: InvoiceRow,
  items: ItemRow[],
  locationName: string | null,
  payments: PaymentRow[],
): InvoiceDto {
  return {
    id: row.id,
    number: row.number,
    status: row.status,
    customer_id: row.customer_id,
    enquiry_id: row.enquiry_id,
    location_id: row.location_id,
    location_name: locationName,
    bill_to: row.bill_to,
    currency: row.currency,
    items: items.map(toItemDto),
    subtotal_cents: row.subtotal_cents,
    tax_cents: row.tax_cents,
    surcharge_bps: row.surcharge_bps,
    surcharge_cents: row.surcharge_cents,
    total_cents: row.total_cents,
    amount_paid_cents: row.amount_paid_cents,
    amount_refunded_cents: row.amount_refunded_cents,
    amount_due_cents: amountDue(row),
    due_date: row.due_date,
    notes: row.notes,
    close_on_paid: row.close_on_paid,
    needs_refund: needsRefund(payments.filter((p) => p.invoice_id === row.id)),
    pay_url: payUrl(publicUrl, row.secret),
    last_payment_error: row.last_payment_error,
    sent_at: row.sent_at,
    viewed_at: row.viewed_at,
    paid_at: row.paid_at,
    voided_at: row.voided_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** The business's invoice settings, made with the defaults on first use. */
export async function brandingOf(db: DbOrTx, businessId: string) {
  const [found] = await db.select().from(invoiceBranding).where(eq(invoiceBranding.business_id, businessId));
  if (found) return found;
  await db.insert(invoiceBranding).values({ business_id: businessId }).onConflictDoNothing();
  const [made] = await db.select().from(invoiceBranding).where(eq(invoiceBranding.business_id, businessId));
  return made!;
}

/**
 * The next invoice number of a business (prefix + sequence): taken under the settings row's lock inside the
 * caller's transaction, so two invoices written at once never share a number, and a number once taken is never
 * handed out again (a deleted draft leaves a gap).
 */
export async function takeInvoiceNumber(tx: DbOrTx, businessId: string): Promise<string> {
  const [row] = await tx
    .insert(invoiceBranding)
    .values({ business_id: businessId, next_number: 2 })
    .onConflictDoUpdate({
      target: invoiceBranding.business_id,
      set: { next_number: sql`${invoiceBranding.next_number} + 1` },
    })
    .returning({ prefix: invoiceBranding.number_prefix, next: invoiceBranding.next_number });
  return `${row!.prefix}${String(row!.next - 1).padStart(4, '0')}`;
}

/** The surcharge rate a location's invoices carry now (0: none). */
async function surchargeOf(db: DbOrTx, locationId: string | null): Promise<number> {
  if (!locationId) return 0;
  const [l] = await db
    .select({ on: locations.card_surcharge_enabled, bps: locations.card_surcharge_bps })
    .from(locations)
    .where(eq(locations.id, locationId));
  return l?.on ? l.bps : 0;
}

/** An amount too large for an invoice (the database's integer columns): a 400 that says so, never a 500. */
function assertStorable(what: string, minor: number, currency: string) {
  if (minor <= INVOICE_MAX_CENTS) return;
  throw new AppError(
    'bad_request',
    `${what} would be ${formatMoney(minor, currency)}; an invoice holds at most ${formatMoney(INVOICE_MAX_CENTS, currency)}.`,
  );
}

/**
 * Lines and totals as stored, computed from what was written and the surcharge rate, rounded to the steps a
 * card payment in the currency is charged in.
 */
function priced(items: InvoiceItemInput[], surchargeBps: number, currency: string) {
  const totals = invoiceTotals(items, surchargeBps, chargeStep(currency));
  totals.lines.forEach((line, i) => {
    assertStorable(`Item ${i + 1}`, line.amount_cents + line.tax_cents, currency);
  });
  assertStorable('The total', totals.total_cents, currency);
  return {
    totals: {
      subtotal_cents: totals.subtotal_cents,
      tax_cents: totals.tax_cents,
      surcharge_bps: surchargeBps,
      surcharge_cents: totals.surcharge_cents,
      total_cents: totals.total_cents,
    },
    lines: items.map((item, i) => ({
      position: i,
      description: item.description,
      quantity: item.quantity,
      unit_price_cents: item.unit_price_cents,
      tax_rate_bps: percentToBps(item.tax_rate),
      amount_cents: totals.lines[i]!.amount_cents,
      tax_cents: totals.lines[i]!.tax_cents,
    })),
  };
}

async function locationName(db: DbOrTx, id: string | null): Promise<string | null> {
  if (!id) return null;
  const [l] = await db.select({ name: locations.name }).from(locations).where(eq(locations.id, id));
  return l?.name ?? null;
}

export async function itemsOf(db: DbOrTx, invoiceId: string): Promise<ItemRow[]> {
  return db
    .select()
    .from(invoiceItems)
    .where(eq(invoiceItems.invoice_id, invoiceId))
    .orderBy(asc(invoiceItems.position));
}

/**
 * One invoice of the business, optionally locked for a change: another business's id, or one at a location the
 * acting staff member does not work at, is not found.
 */
export async function loadInvoice(
  db: DbOrTx,
  scope: InvoiceScope,
  id: string,
  lock = false,
): Promise<InvoiceRow> {
  if (!isUuid(id)) throw invoiceNotFound();
  const q = db
    .select()
    .from(invoices)
    .where(and(eq(invoices.id, id), invoicesTheySee(scope)));
  const [row] = lock ? await q.for('update') : await q;
  if (!row) throw invoiceNotFound();
  return row;
}

export async function invoiceDto(db: DbOrTx, publicUrl: string, row: InvoiceRow): Promise<InvoiceDto> {
  return toInvoiceDto(
    publicUrl,
    row,
    await itemsOf(db, row.id),
    await locationName(db, row.location_id),
    await paymentsOf(db, [row.id]),
  );
}

/** Who an invoice is for: the customer named, or the conversation's; both must be the business's. */
async function resolveParty(db: DbOrTx, a: BusinessActor, input: CreateInput) {
  let enquiry: typeof enquiries.$inferSelect | undefined;
  if (input.enquiry_id) {
    [enquiry] = await db
      .select()
      .from(enquiries)
      .where(
        and(
          eq(enquiries.id, input.enquiry_id),
          eq(enquiries.business_id, a.business_id),
          atTheirLocations(a, enquiries.location_id),
        ),
      );
    if (!enquiry) throw new AppError('not_found', 'Enquiry not found!');
  }
  const customerId = input.customer_id ?? enquiry!.customer_id;
  if (enquiry && input.customer_id && enquiry.customer_id !== input.customer_id)
    throw new AppError('unprocessable', 'That conversation is with another customer.');
  const [customer] = await db
    .select()
    .from(customers)
    .where(and(eq(customers.id, customerId), customersTheySee(a)));
  if (!customer) throw new AppError('not_found', 'Customer not found.');
  return { enquiry, customer };
}

/** `POST /business/customer-invoices`: a draft, numbered, priced, with the location's surcharge if it has one. */
export async function createInvoice(ctx: Ctx, parsed: CreateInput): Promise<InvoiceDto> {
  const a = requireBusiness(ctx.actor);
  const row = await ctx.db.transaction(async (tx) => {
    const { enquiry, customer } = await resolveParty(tx, a, parsed);
    const locationId =
      parsed.location_id === undefined ? defaultInvoiceLocation(a, enquiry?.location_id) : parsed.location_id;
    assertInvoiceLocationFor(a, locationId);
    await assertOwnLocation(tx, a, locationId);
    const branding = await brandingOf(tx, a.business_id);
    const currency = parsed.currency ?? branding.currency;
    const { totals, lines } = priced(parsed.items, await surchargeOf(tx, locationId), currency);
    const [invoice] = await tx
      .insert(invoices)
      .values({
        business_id: a.business_id,
        location_id: locationId,
        customer_id: customer.id,
        enquiry_id: enquiry?.id ?? null,
        created_by: a.user_id,
        number: await takeInvoiceNumber(tx, a.business_id),
        bill_to: parsed.bill_to || customer.name || customer.first_name || customer.phone || customer.email,
        currency,
        due_date: parsed.due_date ?? null,
        notes: parsed.notes ?? null,
        secret: randomBytes(24).toString('base64url'),
        ...totals,
      })
      .returning();
    await tx.insert(invoiceItems).values(lines.map((l) => ({ ...l, invoice_id: invoice!.id })));
    return invoice!;
  });
  return invoiceDto(ctx.db, ctx.config.publicUrl, row);
}

/** Invoices that have been paid (in part or whole) or voided are a record: their lines do not change. */
function assertEditable(row: InvoiceRow) {
  if (row.status === 'void') throw new AppError('conflict', `${row.number} is void; it cannot be changed.`);
  if (row.amount_paid_cents > 0)
    throw new AppError('conflict', `${row.number} has been paid; it cannot be changed. Refund it instead.`);
}

/** `PUT /business/customer-invoices/{id}`: changes an unpaid invoice; a sent one keeps its link and number. */
export async function updateInvoice(ctx: Ctx, id: string, patch: PatchInput): Promise<InvoiceDto> {
  const a = requireBusiness(ctx.actor);
  await prepareCheckoutClosing(ctx);
  const row = await ctx.db.transaction(async (tx) => {
    const current = await loadInvoice(tx, a, id, true);
    assertEditable(current);
    if (patch.location_id !== undefined) {
      assertInvoiceLocationFor(a, patch.location_id);
      await assertOwnLocation(tx, a, patch.location_id);
    }
    const locationId = patch.location_id === undefined ? current.location_id : patch.location_id;
    const items = patch.items ?? (await itemsOf(tx, current.id)).map(toItemDto);
    const currency = patch.currency ?? current.currency;
    const { totals, lines } = priced(items, await surchargeOf(tx, locationId), currency);
    // The customer's open payment page is for the old amount: it is closed at Stripe, so it cannot be paid.
    const moneyChanged = totals.total_cents !== current.total_cents || currency !== current.currency;
    if (moneyChanged) await closeCheckout({ ...ctx, db: tx }, current);
    const [updated] = await tx
      .update(invoices)
      .set({
        location_id: locationId,
        ...(patch.bill_to !== undefined ? { bill_to: patch.bill_to || current.bill_to } : {}),
        ...(patch.currency ? { currency: patch.currency } : {}),
        ...(patch.due_date !== undefined ? { due_date: patch.due_date } : {}),
        ...(patch.notes !== undefined ? { notes: patch.notes } : {}),
        ...totals,
        // A changed due date starts its reminders afresh.
        ...(patch.due_date !== undefined ? { reminders_sent: [] } : {}),
        version: sql`${invoices.version} + 1`,
        last_payment_error: null,
      })
      .where(eq(invoices.id, current.id))
      .returning();
    if (patch.items) {
      await tx.delete(invoiceItems).where(eq(invoiceItems.invoice_id, current.id));
      await tx.insert(invoiceItems).values(lines.map((l) => ({ ...l, invoice_id: current.id })));
    }
    return updated!;
  });
  const dto = await invoiceDto(ctx.db, ctx.config.publicUrl, row);
  ctx.events.emit('invoice.updated', { business_id: a.business_id, invoice: dto });
  return dto;
}

/** `DELETE /business/customer-invoices/{id}`: only a draft (its number is not reused); others are voided. */
export async function deleteInvoice(ctx: Ctx, id: string): Promise<void> {
  const a = requireBusiness(ctx.actor);
  const row = await loadInvoice(ctx.db, a, id);
  if (row.status !== 'draft')
    throw new AppError('conflict', `${row.number} has been sent; void it instead of deleting it.`);
  await ctx.db.delete(invoices).where(eq(invoices.id, row.id));
}

/** `POST /business/customer-invoices/{id}/void`: an unpaid invoice stops being payable (the owner's call). */
export async function voidInvoice(ctx: Ctx, id: string): Promise<InvoiceDto> {
  const a = requireOwner(ctx.actor, 'void invoices');
  await prepareCheckoutClosing(ctx);
  const row = await ctx.db.transaction(async (tx) => {
    const current = await loadInvoice(tx, a, id, true);
    if (current.status === 'void') return current;
    if (current.amount_paid_cents > 0)
      throw new AppError('conflict', `${current.number} has been paid; refund it instead of voiding it.`);
    await closeCheckout({ ...ctx, db: tx }, current);
    const [updated] = await tx
      .update(invoices)
      .set({ status: 'void', voided_at: new Date(), version: sql`${invoices.version} + 1` })
      .where(eq(invoices.id, current.id))
      .returning();
    return updated!;
  });
  const dto = await invoiceDto(ctx.db, ctx.config.publicUrl, row);
  ctx.events.emit('invoice.updated', { business_id: a.business_id, invoice: dto });
  return dto;
}

/** The conditions the list and the export share. */
async function listWhere(db: DbOrTx, a: BusinessActor, q: Omit<ListFilters, 'page' | 'page_size'>) {
  const where: SQL[] = [invoicesTheySee(a)];
  if (q.status) where.push(eq(invoices.status, q.status));
  if (q.customer_id) where.push(eq(invoices.customer_id, q.customer_id));
  if (q.location_id) where.push(eq(invoices.location_id, q.location_id));
  if (q.enquiry_id) where.push(eq(invoices.enquiry_id, q.enquiry_id));
  if (q.start_date || q.end_date) {
    const tz = await businessTimezone(db, a.business_id);
    if (q.start_date && q.end_date && q.start_date > q.end_date)
      throw new AppError('bad_request', `The dates start (${q.start_date}) after they end (${q.end_date}).`);
    if (q.start_date)
      where.push(sql`${invoices.created_at} >= (${q.start_date}::date)::timestamp at time zone ${tz}`);
    if (q.end_date)
      where.push(sql`${invoices.created_at} < ((${q.end_date}::date + 1)::timestamp at time zone ${tz})`);
  }
  if (q.q) {
    const like = `%${q.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    where.push(
      or(
        ilike(invoices.number, like),
        ilike(invoices.bill_to, like),
        exists(
          db
            .select({ one: sql`1` })
            .from(invoiceItems)
            .where(and(eq(invoiceItems.invoice_id, invoices.id), ilike(invoiceItems.description, like))),
        ),
      )!,
    );
  }
  return and(...where);
}

/** `GET /business/customer-invoices`: newest first, filtered, a page at a time. */
export async function listInvoices(ctx: Ctx, q: ListFilters): Promise<PageOf<InvoiceDto>> {
  const a = requireBusiness(ctx.actor);
  const where = await listWhere(ctx.db, a, q);
  const [rows, [count]] = await Promise.all([
    ctx.db
      .select({ invoice: invoices, location_name: locations.name })
      .from(invoices)
      .leftJoin(locations, eq(locations.id, invoices.location_id))
      .where(where)
      .orderBy(desc(invoices.created_at), desc(invoices.id))
      .limit(q.page_size)
      .offset((q.page - 1) * q.page_size),
    ctx.db.select({ n: sql<number>`count(*)::int` }).from(invoices).where(where),
  ]);
  const items = rows.length
    ? await ctx.db
        .select()
        .from(invoiceItems)
        .where(
          inArray(
            invoiceItems.invoice_id,
            rows.map((r) => r.invoice.id),
          ),
        )
        .orderBy(asc(invoiceItems.position))
    : [];
  const payments = await paymentsOf(
    ctx.db,
    rows.map((r) => r.invoice.id),
  );
  return {
    items: rows.map((r) =>
      toInvoiceDto(
        ctx.config.publicUrl,
        r.invoice,
        items.filter((i) => i.invoice_id === r.invoice.id),
        r.location_name,
        payments,
      ),
    ),
    page: q.page,
    page_size: q.page_size,
    total: count?.n ?? 0,
  };
}

/** Every invoice the filters match, oldest page first, in batches: what the CSV export streams. */
export async function* invoicesForExport(
  ctx: Ctx,
  query: Omit<ListFilters, 'page' | 'page_size'>,
  batch = 500,
): AsyncGenerator<{ invoice: InvoiceRow; location_name: string | null; items: ItemRow[] }> {
  const a = requireBusiness(ctx.actor);
  const where = await listWhere(ctx.db, a, query);
  for (let offset = 0; ; offset += batch) {
    const rows = await ctx.db
      .select({ invoice: invoices, location_name: locations.name })
      .from(invoices)
      .leftJoin(locations, eq(locations.id, invoices.location_id))
      .where(where)
      .orderBy(desc(invoices.created_at), desc(invoices.id))
      .limit(batch)
      .offset(offset);
    if (!rows.length) return;
    const items = await ctx.db
      .select()
      .from(invoiceItems)
      .where(
        inArray(
          invoiceItems.invoice_id,
          rows.map((r) => r.invoice.id),
        ),
      )
      .orderBy(asc(invoiceItems.position));
    for (const r of rows) yield { ...r, items: items.filter((i) => i.invoice_id === r.invoice.id) };
    if (rows.length < batch) return;
  }
}

export async function getInvoice(ctx: Ctx, id: string): Promise<InvoiceDto> {
  const a = requireBusiness(ctx.actor);
  return invoiceDto(ctx.db, ctx.config.publicUrl, await loadInvoice(ctx.db, a, id));
}
