import { businesses, type DbOrTx, invoices } from '@switchboard/db';
import {
  chargeStep,
  formatMoney,
  formatRate,
  fromStripeAmount,
  INVOICE_STATUS_LABELS,
  PAYABLE_INVOICE_STATUSES,
  STRIPE_MAX_AMOUNT,
  toStripeAmount,
} from '@switchboard/shared';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Context } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { checkoutExpire } from '../../jobs/definitions/checkout-expire.ts';
import { ipKey, type LimitRule } from '../../lib/limiter.ts';
import { amountDue } from './ledger.ts';

type InvoiceRow = typeof invoices.$inferSelect;

/** A session kept for reuse must have at least this long left, so the customer has time to pay on it. */
const REUSE_MARGIN_MS = 15 * 60_000;

/** Before a transaction that may close a Checkout session: its job can then be queued inside it. */
export async function prepareCheckoutClosing({ jobs }: Pick<Context, 'jobs'>): Promise<void> {
  await jobs.prepare(checkoutExpire);
}

/**
 * Forgets the invoice's open Checkout session and queues closing it at Stripe, inside the caller's
 * transaction (so a change that commits always closes it, retried until Stripe answers): the customer's old
 * page, for an amount no longer owed, cannot be paid.
 */
export async function closeCheckout(
  { db, jobs }: { db: DbOrTx } & Pick<Context, 'jobs'>,
  invoice: InvoiceRow,
): Promise<void> {
  if (!invoice.checkout_session_id) return;
  const [business] = await db
    .select({ account: businesses.stripe_account_id })
    .from(businesses)
    .where(eq(businesses.id, invoice.business_id));
  if (business?.account)
    await jobs.send(
      checkoutExpire,
      { account: business.account, session_id: invoice.checkout_session_id },
      { db, singletonKey: invoice.checkout_session_id },
    );
  await db
    .update(invoices)
    .set({
      checkout_session_id: null,
      checkout_url: null,
      checkout_amount_cents: null,
      checkout_expires_at: null,
    })
    .where(eq(invoices.id, invoice.id));
}

/** The `checkout.expire` job: Stripe closes the session (one that is complete or expired already is done). */
export async function expireCheckoutSession(
  app: FastifyInstance,
  job: { account: string; session_id: string },
): Promise<void> {
  if (!app.payments) return;
  const outcome = await app.payments.expireCheckout(job.account, job.session_id);
  if (outcome === 'not_open')
    app.log.info({ session: job.session_id }, 'Checkout session to close was no longer open');
}

/** Starting card payments from the pay page: per pay link and per client address, in the shared limit store. */
async function limitCheckouts(app: FastifyInstance, secret: string, ip: string): Promise<void> {
  const { perLink, perIp, windowSeconds } = app.config.payments.checkoutLimits;
  const rules: [LimitRule, string][] = [
    [{ name: 'checkout_link', points: perLink, windowSeconds }, secret],
    [{ name: 'checkout_ip', points: perIp, windowSeconds }, ipKey(ip)],
  ];
  for (const [rule, key] of rules) {
    const wait = await app.limiter.take(rule, key);
    if (!wait) continue;
    const minutes = Math.max(1, Math.ceil(wait / 60));
    throw new AppError(
      'rate_limited',
      `Too many payment attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
      { headers: { 'retry-after': String(wait) } },
    );
  }
}

/** What the customer is asked to pay: the lines (tax included) and the surcharge, or, after a part payment, the balance. */
function checkoutLines(
  invoice: InvoiceRow,
  items: { description: string; quantity: number | string; amount_cents: number; tax_cents: number }[],
  due: number,
) {
  if (due !== invoice.total_cents)
    return [{ name: `Invoice ${invoice.number}: balance due`, amount_cents: due }];
  const lines = items.map((item) => ({
    name: Number(item.quantity) === 1 ? item.description : `${item.description} × ${Number(item.quantity)}`,
    amount_cents: item.amount_cents + item.tax_cents,
  }));
  if (invoice.surcharge_cents > 0)
    lines.push({
      name: `Card surcharge (${formatRate(invoice.surcharge_bps)})`,
      amount_cents: invoice.surcharge_cents,
    });
  return lines.filter((l) => l.amount_cents > 0);
}

/** The most a card is charged in one payment in this currency, in its minor units. */
function cardMaximum(currency: string): number {
  const step = chargeStep(currency);
  return Math.floor(fromStripeAmount(STRIPE_MAX_AMOUNT, currency) / step) * step;
}

/**
 * `POST /business/invoices/secret/{id}/checkout` (public): a Stripe Checkout session for what is due now, a
 * direct charge on the business's connected account. Limited per link and per client address. An open
 * session for the same amount with time left is reused, so clicking again spends nothing at Stripe; a new
 * one is stored only if the invoice did not change meanwhile (else it is closed again and the customer asked
 * to reload).
 */
export async function startCheckout(
  app: FastifyInstance,
  invoice: InvoiceRow,
  ip: string,
  loadItems: (
    invoiceId: string,
  ) => Promise<{ description: string; quantity: number | string; amount_cents: number; tax_cents: number }[]>,
  payUrl: string,
): Promise<{ url: string }> {
  if (!app.payments)
    throw new AppError(
      'conflict',
      'This Switchboard server takes no card payments: its operator has not set up Stripe (STRIPE_SECRET_KEY).',
    );
  const payments = app.payments;
  await limitCheckouts(app, invoice.secret, ip);
  if (!PAYABLE_INVOICE_STATUSES.includes(invoice.status))
    throw new AppError(
      'conflict',
      `Invoice ${invoice.number} cannot be paid: it is ${INVOICE_STATUS_LABELS[invoice.status].toLowerCase()}.`,
    );
  const due = amountDue(invoice);
  if (due <= 0) throw new AppError('conflict', `Invoice ${invoice.number} has nothing left to pay.`);
  const [business] = await app.db.select().from(businesses).where(eq(businesses.id, invoice.business_id));
  if (!business?.stripe_account_id || !business.stripe_charges_enabled)
    throw new AppError('conflict', `${business?.name ?? 'The business'} cannot take card payments yet.`);
  if (
    invoice.checkout_session_id &&
    invoice.checkout_url &&
    invoice.checkout_amount_cents === due &&
    invoice.checkout_expires_at &&
    invoice.checkout_expires_at.getTime() - Date.now() > REUSE_MARGIN_MS
  )
    return { url: invoice.checkout_url };
  if (toStripeAmount(due, invoice.currency) > STRIPE_MAX_AMOUNT)
    throw new AppError(
      'bad_request',
      `${formatMoney(due, invoice.currency)} is more than one card payment can be (at most ${formatMoney(cardMaximum(invoice.currency), invoice.currency)}). Contact ${business.name} to pay another way.`,
    );
  const step = chargeStep(invoice.currency);
  const fee = Math.round((due * app.config.payments.applicationFeeBps) / 10_000 / step) * step;
  let session: { id: string; url: string; expires_at: Date };
  try {
    session = await payments.checkout({
      account: business.stripe_account_id,
      invoice_id: invoice.id,
      business_id: invoice.business_id,
      currency: invoice.currency,
      lines: checkoutLines(invoice, await loadItems(invoice.id), due),
      application_fee_cents: fee,
      success_url: `${payUrl}?paid=1`,
      cancel_url: payUrl,
      customer_email: null,
      // Two clicks at once make one session; a replaced session (expired, or for another amount) gets a new key.
      idempotency_key: `checkout:${invoice.id}:v${invoice.version}:${due}:${invoice.checkout_session_id ?? 'first'}`,
    });
  } catch (error) {
    app.log.warn({ err: error, invoice_id: invoice.id }, 'starting checkout failed');
    const detail = error instanceof Error ? error.message : String(error);
    throw new AppError('service_unavailable', `Stripe did not start the payment: ${detail}`);
  }
  const [stored] = await app.db
    .update(invoices)
    .set({
      checkout_session_id: session.id,
      checkout_url: session.url,
      checkout_amount_cents: due,
      checkout_expires_at: session.expires_at,
    })
    .where(and(eq(invoices.id, invoice.id), eq(invoices.version, invoice.version)))
    .returning({ id: invoices.id });
  if (!stored) {
    // The invoice changed while Stripe was asked: this session is for what it was, so it is closed.
    await app.jobs.send(
      checkoutExpire,
      { account: business.stripe_account_id, session_id: session.id },
      { singletonKey: session.id },
    );
    throw new AppError(
      'conflict',
      `Invoice ${invoice.number} just changed. Reload the page to pay what it is now.`,
    );
  }
  return { url: session.url };
}
