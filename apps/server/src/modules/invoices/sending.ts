import { businesses, customers, enquiries, invoiceBranding, invoices, locations } from '@switchboard/db';
import {
  addDays,
  calendarDayIn,
  formatMoney,
  type InvoiceDto,
  isSendingTime,
  type SendInvoiceRequest,
  SendMessageRequest,
} from '@switchboard/shared';
import { and, desc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { Context } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { atTheirLocations, requireBusiness } from '../../plugins/auth.ts';
import { sendAutomatic } from '../messages/automatic.ts';
import { sendMessage } from '../messages/service.ts';
import { amountDue } from './ledger.ts';
import { type InvoiceRow, invoiceDto, loadInvoice, payUrl } from './service.ts';

/** What marks a message as an invoice reminder (`meta.auto`). */
export const INVOICE_REMINDER_AUTO = 'invoice_reminder';

/** "3 Dec 2026": a due date as the customer reads it. */
export function formatDay(day: string): string {
  return new Intl.DateTimeFormat('en-AU', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${day}T00:00:00Z`));
}

/** What the invoice is for, and after a part payment what is left of it: `$1,000.00 ($990.00 left to pay)`. */
function owing(invoice: InvoiceRow): string {
  const total = formatMoney(invoice.total_cents, invoice.currency);
  const due = amountDue(invoice);
  return invoice.amount_paid_cents > 0 && due > 0
    ? `${total} (${formatMoney(due, invoice.currency)} left to pay)`
    : total;
}

function invoiceText(input: {
  first_name: string | null;
  business: string;
  invoice: InvoiceRow;
  url: string;
}): string {
  const { invoice } = input;
  const hi = input.first_name ? `Hi ${input.first_name}, here` : 'Here';
  const due = invoice.due_date ? `, due ${formatDay(invoice.due_date)}` : '';
  return `${hi} is invoice ${invoice.number} from ${input.business} for ${owing(invoice)}${due}. View and pay: ${input.url}`;
}

/** The conversation an invoice goes out in: its own, else the customer's latest where the sender works. */
async function conversationOf(ctx: Pick<Context, 'db' | 'actor'>, invoice: InvoiceRow): Promise<string> {
  if (invoice.enquiry_id) return invoice.enquiry_id;
  const [latest] = invoice.customer_id
    ? await ctx.db
        .select({ id: enquiries.id })
        .from(enquiries)
        .where(
          and(
            eq(enquiries.customer_id, invoice.customer_id),
            atTheirLocations(ctx.actor, enquiries.location_id),
          ),
        )
        .orderBy(desc(enquiries.last_message_at))
        .limit(1)
    : [];
  if (!latest)
    throw new AppError(
      'unprocessable',
      `There is no conversation with ${invoice.bill_to ?? 'this customer'} to send ${invoice.number} in. Start one from the inbox first.`,
    );
  return latest.id;
}

/**
 * `POST /business/customer-invoices/{id}/send`: the pay link goes to the customer in the conversation, on its
 * channel, as a reply from the person sending it. A draft becomes sent; sending again sends the link again.
 */
export async function sendInvoice(
  ctx: Context,
  id: string,
  input: z.output<typeof SendInvoiceRequest>,
): Promise<InvoiceDto> {
  const a = requireBusiness(ctx.actor);
  const invoice = await loadInvoice(ctx.db, a, id);
  if (invoice.status === 'void')
    throw new AppError('conflict', `${invoice.number} is void; it cannot be sent.`);
  if (invoice.status !== 'draft' && amountDue(invoice) === 0)
    throw new AppError('conflict', `${invoice.number} has nothing left to pay.`);
  const enquiryId = await conversationOf(ctx, invoice);
  const [who] = await ctx.db
    .select({ first_name: customers.first_name, business: businesses.name, channel: enquiries.channel })
    .from(enquiries)
    .innerJoin(customers, eq(customers.id, enquiries.customer_id))
    .innerJoin(businesses, eq(businesses.id, enquiries.business_id))
    .where(eq(enquiries.id, enquiryId));
  const url = payUrl(ctx.config.publicUrl, invoice.secret);
  const written = input.message?.trim();
  const text = written
    ? written.includes(url)
      ? written
      : `${written}\n${url}`
    : invoiceText({ first_name: who?.first_name ?? null, business: who?.business ?? '', invoice, url });
  await sendMessage(
    ctx,
    enquiryId,
    SendMessageRequest.parse({
      message: text,
      // A subject only where the channel has one.
      meta:
        who?.channel === 'email' ? { subject: `Invoice ${invoice.number} from ${who.business}`.trim() } : {},
    }),
    { meta: { invoice_id: invoice.id } },
  );
  const [updated] = await ctx.db
    .update(invoices)
    .set({
      enquiry_id: enquiryId,
      ...(invoice.status === 'draft' ? { status: 'sent' as const } : {}),
      sent_at: invoice.sent_at ?? new Date(),
      ...(input.close_on_paid !== undefined ? { close_on_paid: input.close_on_paid } : {}),
    })
    .where(eq(invoices.id, invoice.id))
    .returning();
  const dto = await invoiceDto(ctx.db, ctx.config.publicUrl, updated!);
  ctx.events.emit('invoice.updated', { business_id: a.business_id, invoice: dto });
  return dto;
}

/**
 * The reminder an unpaid invoice is due today, if any: `before:N` once from N days before the due date, and
 * `after:N` from N days after it (the latest one due only, so a late sweep never sends several at once).
 */
export function dueReminder(
  today: string,
  due: string,
  settings: { before: number | null; after: number[] },
  sent: string[],
): { key: string; covers: string[] } | null {
  if (today < due) {
    if (settings.before === null || today < addDays(due, -settings.before)) return null;
    const key = `before:${settings.before}`;
    return sent.includes(key) ? null : { key, covers: [key] };
  }
  const passed = [...settings.after].sort((x, y) => x - y).filter((n) => today >= addDays(due, n));
  const latest = passed.at(-1);
  if (latest === undefined) return null;
  const key = `after:${latest}`;
  if (sent.includes(key)) return null;
  return { key, covers: passed.map((n) => `after:${n}`) };
}

/**
 * Hourly: unpaid invoices past their due day become overdue, and each invoice's reminder that is due goes out
 * in its conversation (between 9:00 and 20:00 where the location is), once.
 */
export async function sweepInvoiceReminders(app: FastifyInstance, now = new Date()): Promise<number> {
  const rows = await app.db
    .select({
      invoice: invoices,
      timezone: sql<string>`coalesce(${locations.timezone}, ${businesses.timezone})`,
      business: businesses.name,
      first_name: customers.first_name,
      before: invoiceBranding.reminder_days_before,
      after: invoiceBranding.reminder_days_after,
    })
    .from(invoices)
    .innerJoin(businesses, eq(businesses.id, invoices.business_id))
    .leftJoin(locations, eq(locations.id, invoices.location_id))
    .leftJoin(customers, eq(customers.id, invoices.customer_id))
    .leftJoin(invoiceBranding, eq(invoiceBranding.business_id, invoices.business_id))
    .where(
      and(
        inArray(invoices.status, ['sent', 'viewed', 'overdue', 'partially_paid']),
        isNotNull(invoices.due_date),
        isNotNull(invoices.enquiry_id),
        sql`${invoices.due_date} <= (now() at time zone 'UTC')::date + 61`,
      ),
    )
    .limit(1000);
  let sent = 0;
  for (const row of rows) {
    const { invoice } = row;
    const today = calendarDayIn(now, row.timezone);
    if (today > invoice.due_date! && invoice.status !== 'overdue') await markOverdue(app, invoice);
    if (!isSendingTime(now, row.timezone)) continue;
    const reminder = dueReminder(
      today,
      invoice.due_date!,
      { before: row.before === undefined ? 3 : row.before, after: row.after ?? [1, 7] },
      invoice.reminders_sent,
    );
    if (!reminder) continue;
    const url = payUrl(app.config.publicUrl, invoice.secret);
    const hi = row.first_name ? `Hi ${row.first_name}, a` : 'A';
    const amount = owing(invoice);
    const when =
      today < invoice.due_date!
        ? `is due on ${formatDay(invoice.due_date!)}`
        : `was due on ${formatDay(invoice.due_date!)}`;
    const outcome = await sendAutomatic(app, {
      enquiry_id: invoice.enquiry_id!,
      message: `${hi} reminder that invoice ${invoice.number} from ${row.business} for ${amount} ${when}. Pay here: ${url}`,
      client_id: `invoice-reminder:${invoice.id}:${reminder.key}`,
      meta: { auto: INVOICE_REMINDER_AUTO, invoice_id: invoice.id },
      email_subject: `Reminder: invoice ${invoice.number} from ${row.business}`,
    });
    // Sent, or unsendable (the customer opted out): either way this reminder is done.
    await app.db
      .update(invoices)
      .set({ reminders_sent: [...new Set([...invoice.reminders_sent, ...reminder.covers])] })
      .where(eq(invoices.id, invoice.id));
    if (outcome.sent) sent += 1;
    else app.log.info({ invoice_id: invoice.id, reason: outcome.reason }, 'invoice reminder not sent');
  }
  return sent;
}

async function markOverdue(app: FastifyInstance, invoice: InvoiceRow) {
  const [updated] = await app.db
    .update(invoices)
    .set({ status: 'overdue' })
    .where(and(eq(invoices.id, invoice.id), inArray(invoices.status, ['sent', 'viewed'])))
    .returning();
  if (updated)
    app.events.emit('invoice.updated', {
      business_id: updated.business_id,
      invoice: await invoiceDto(app.db, app.config.publicUrl, updated),
    });
}
