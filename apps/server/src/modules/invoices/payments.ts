import {
  businesses,
  invoicePayments,
  invoiceRefunds,
  invoices,
  locations,
  stripeEvents,
  users,
} from '@switchboard/db';
import {
  chargeStep,
  formatMoney,
  fromStripeAmount,
  type InvoiceDto,
  isCurrencyCode,
  isUuid,
  type RefundInvoiceRequest,
  type StripeAccountDto,
} from '@switchboard/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type Stripe from 'stripe';
import type { z } from 'zod';
import type { Context } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { heldEvents } from '../../events/bus.ts';
import { accountState, type Payments } from '../../integrations/stripe/payments.ts';
import { reviewAfterPayment } from '../../jobs/definitions/reviews.ts';
import { requireOwner } from '../../plugins/auth.ts';
import { applyBillingEvent, BILLING_EVENTS } from '../billing/events.ts';
import { accountChanged } from '../billing/service.ts';
import { closeEnquiryFor } from '../enquiries/service.ts';
import { addEventNote } from '../notes/service.ts';
import { queueReviewAfterPayment } from '../reviews/service.ts';
import { startCheckout } from './checkout.ts';
import {
  appliedRefunded,
  applyPayment,
  type PaymentRow,
  paymentNote,
  paymentsOf,
  unowedLeft,
} from './ledger.ts';
import { type InvoiceRow, invoiceDto, itemsOf, loadInvoice, payUrl } from './service.ts';

const noPayments = () =>
  new AppError(
    'conflict',
    'This Switchboard server takes no card payments: its operator has not set up Stripe (STRIPE_SECRET_KEY).',
  );

function paymentsOrRefuse(payments: Payments | null): Payments {
  if (!payments) throw noPayments();
  return payments;
}

/** A provider call that failed, said as what happened (Stripe's own message when it gave one). */
function providerFailed(action: string, error: unknown): AppError {
  const detail = error instanceof Error ? error.message : String(error);
  return new AppError('service_unavailable', `Stripe did not ${action}: ${detail}`);
}

/**
 * `GET /business/mybusiness/stripe-connect-link`: makes the business's connected account the first time, and
 * answers the link where the owner gives Stripe their details; Stripe sends them back to payment settings.
 */
export async function stripeConnectLink(ctx: Context): Promise<{ url: string }> {
  const a = requireOwner(ctx.actor, 'connect Stripe');
  const payments = paymentsOrRefuse(ctx.payments);
  const [business] = await ctx.db.select().from(businesses).where(eq(businesses.id, a.business_id));
  let account = business!.stripe_account_id;
  try {
    if (!account) {
      const [owner] = await ctx.db.select({ email: users.email }).from(users).where(eq(users.id, a.user_id));
      account = await payments.createAccount({
        business_id: a.business_id,
        name: business!.name,
        email: owner?.email ?? null,
      });
      // Another click may have made it at the same moment: the first one stored wins.
      const [stored] = await ctx.db
        .update(businesses)
        .set({ stripe_account_id: sql`coalesce(${businesses.stripe_account_id}, ${account})` })
        .where(eq(businesses.id, a.business_id))
        .returning({ account: businesses.stripe_account_id });
      account = stored!.account!;
      await storeAccountState(ctx.db, account, await payments.account(account));
    }
    const settings = `${ctx.config.publicUrl}/settings/payments`;
    const url = await payments.onboardingLink(account, {
      return_url: `${settings}?stripe=return`,
      refresh_url: `${settings}?stripe=refresh`,
    });
    return { url };
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw providerFailed('start the connection', error);
  }
}

/** The business's Stripe account as settings show it, asked of Stripe afresh (and kept) when it can be. */
export async function stripeAccount(ctx: Context): Promise<StripeAccountDto> {
  const a = requireOwner(ctx.actor, 'see payment settings');
  const [business] = await ctx.db.select().from(businesses).where(eq(businesses.id, a.business_id));
  const mode = ctx.payments?.mode ?? 'off';
  let state = {
    details_submitted: business!.stripe_details_submitted,
    charges_enabled: business!.stripe_charges_enabled,
    payouts_enabled: business!.stripe_payouts_enabled,
  };
  if (ctx.payments && business!.stripe_account_id) {
    try {
      state = await ctx.payments.account(business!.stripe_account_id);
      await storeAccountState(ctx.db, business!.stripe_account_id, state);
    } catch (error) {
      ctx.log.warn({ err: error }, 'reading the Stripe account failed; showing what was last known');
    }
  }
  return { mode, connected: Boolean(business!.stripe_account_id), ...state };
}

async function storeAccountState(
  db: Context['db'],
  account: string,
  state: ReturnType<typeof accountState>,
): Promise<boolean> {
  const updated = await db
    .update(businesses)
    .set({
      stripe_details_submitted: state.details_submitted,
      stripe_charges_enabled: state.charges_enabled,
      stripe_payouts_enabled: state.payouts_enabled,
    })
    .where(eq(businesses.stripe_account_id, account))
    .returning({ id: businesses.id });
  return updated.length > 0;
}

/** `POST /business/toggle-stripe-charge-rate/{id}`: a location's card surcharge on or off, and its rate. */
export async function toggleSurcharge(
  ctx: Context,
  locationId: string,
  input: { enabled?: boolean; rate?: number } | null | undefined,
) {
  const a = requireOwner(ctx.actor, 'change card surcharges');
  const [current] = await ctx.db
    .select()
    .from(locations)
    .where(and(eq(locations.id, locationId), eq(locations.business_id, a.business_id)));
  if (!current) throw new AppError('not_found', 'Location not found.');
  const [updated] = await ctx.db
    .update(locations)
    .set({
      card_surcharge_enabled: input?.enabled ?? !current.card_surcharge_enabled,
      ...(input?.rate !== undefined ? { card_surcharge_bps: Math.round(input.rate * 100) } : {}),
    })
    .where(eq(locations.id, current.id))
    .returning();
  return {
    location_id: updated!.id,
    enabled: updated!.card_surcharge_enabled,
    rate_bps: updated!.card_surcharge_bps,
  };
}

export async function invoiceBySecret(app: Pick<FastifyInstance, 'db'>, secret: string): Promise<InvoiceRow> {
  const [invoice] = /^[A-Za-z0-9_-]{20,64}$/.test(secret)
    ? await app.db.select().from(invoices).where(eq(invoices.secret, secret))
    : [];
  if (!invoice) throw new AppError('not_found', 'This invoice link is not valid.');
  return invoice;
}

/** `POST /business/invoices/secret/{id}/checkout` (public): Checkout for what the invoice behind the link owes now. */
export async function startInvoiceCheckout(
  app: FastifyInstance,
  secret: string,
  ip: string,
): Promise<{ url: string }> {
  const invoice = await invoiceBySecret(app, secret);
  return startCheckout(
    app,
    invoice,
    ip,
    (id) => itemsOf(app.db, id),
    payUrl(app.config.publicUrl, invoice.secret),
  );
}

type RefundDeps = Pick<Context, 'db' | 'events' | 'config' | 'log'>;

/** The business's connected account, which its invoices' payments were made on. */
async function accountOf(ctx: Pick<Context, 'db'>, businessId: string): Promise<string> {
  const [business] = await ctx.db
    .select({ account: businesses.stripe_account_id })
    .from(businesses)
    .where(eq(businesses.id, businessId));
  if (!business?.account)
    throw new AppError('conflict', 'This business has no Stripe account to refund from.');
  return business.account;
}

/** One refund at Stripe of part of one payment, kept on the payment (once per amount, however often retried). */
async function refundPayment(
  ctx: Pick<Context, 'db'>,
  payments: Payments,
  account: string,
  payment: PaymentRow,
  amount: number,
): Promise<void> {
  try {
    await payments.refund({
      account,
      payment_intent: payment.payment_intent_id,
      currency: payment.currency,
      amount_cents: amount,
      idempotency_key: `refund:${payment.payment_intent_id}:${payment.refunded_cents}:${amount}`,
    });
  } catch (error) {
    throw providerFailed('refund the payment', error);
  }
  await ctx.db
    .update(invoicePayments)
    .set({
      refunded_cents: sql`greatest(${invoicePayments.refunded_cents}, ${payment.refunded_cents + amount})`,
    })
    .where(eq(invoicePayments.id, payment.id));
}

/**
 * `POST /business/customer-invoices/{id}/refund`: all that is left of what was paid toward the invoice, or
 * part of it; through Stripe on the connected account, from the latest payment back.
 */
export async function refundInvoice(
  ctx: Context,
  id: string,
  input: z.output<typeof RefundInvoiceRequest>,
): Promise<InvoiceDto> {
  const a = requireOwner(ctx.actor, 'refund invoices');
  const payments = paymentsOrRefuse(ctx.payments);
  const invoice = await loadInvoice(ctx.db, a, id);
  const left = invoice.amount_paid_cents - invoice.amount_refunded_cents;
  if (left <= 0) throw new AppError('conflict', `${invoice.number} has nothing paid by card left to refund.`);
  const amount = input.amount_cents ?? left;
  if (amount > left)
    throw new AppError(
      'unprocessable',
      `At most ${formatMoney(left, invoice.currency)} of ${invoice.number} can be refunded.`,
    );
  const step = chargeStep(invoice.currency);
  if (amount % step !== 0)
    throw new AppError(
      'bad_request',
      `Card refunds in ${invoice.currency} go in steps of ${formatMoney(step, invoice.currency)}.`,
    );
  const account = await accountOf(ctx, a.business_id);
  let rest = amount;
  const paid = (await paymentsOf(ctx.db, [invoice.id])).filter((p) => p.applied_cents > 0).reverse();
  for (const payment of paid) {
    const take = Math.min(rest, payment.applied_cents - appliedRefunded(payment));
    if (take <= 0) continue;
    await refundPayment(ctx, payments, account, payment, take);
    rest -= take;
    if (rest === 0) break;
  }
  const updated = await ctx.db.transaction(async (tx) => {
    const held = heldEvents();
    const row = await settleRefunds({ ...ctx, db: tx, events: held.events }, invoice.id);
    return { row, held };
  });
  updated.held.release(ctx.events);
  return invoiceDto(ctx.db, ctx.config.publicUrl, updated.row ?? invoice);
}

/**
 * `POST /business/customer-invoices/{id}/refund-unowed`: gives back every payment (or part) the invoice did
 * not owe (paid after it was voided, refunded or paid, in another currency, beyond the total).
 */
export async function refundUnowed(ctx: Context, id: string): Promise<InvoiceDto> {
  const a = requireOwner(ctx.actor, 'refund invoices');
  const payments = paymentsOrRefuse(ctx.payments);
  const invoice = await loadInvoice(ctx.db, a.business_id, id);
  const owedBack = (await paymentsOf(ctx.db, [invoice.id])).filter((p) => unowedLeft(p) > 0);
  if (!owedBack.length) throw new AppError('conflict', `${invoice.number} has no payment to give back.`);
  const account = await accountOf(ctx, a.business_id);
  for (const payment of owedBack) {
    if (!isCurrencyCode(payment.currency))
      throw new AppError(
        'unprocessable',
        `A payment of ${invoice.number} is in ${payment.currency}; refund it from the Stripe dashboard.`,
      );
    await refundPayment(ctx, payments, account, payment, unowedLeft(payment));
  }
  const body = `Invoice ${invoice.number}: ${owedBack.map((p) => formatMoney(unowedLeft(p), p.currency)).join(' and ')} it did not owe refunded.`;
  const held = heldEvents();
  await ctx.db.transaction(async (tx) => {
    const deps = { ...ctx, db: tx, events: held.events };
    if (invoice.enquiry_id) await noteQuietly(deps, invoice, body);
    deps.events.emit('invoice.updated', {
      business_id: invoice.business_id,
      invoice: await invoiceDto(tx, ctx.config.publicUrl, invoice),
    });
  });
  held.release(ctx.events);
  return invoiceDto(ctx.db, ctx.config.publicUrl, invoice);
}

/** An event note in the invoice's conversation; a conversation gone meanwhile is no reason to fail. */
async function noteQuietly(deps: Pick<Context, 'db' | 'events' | 'log'>, invoice: InvoiceRow, body: string) {
  if (!invoice.enquiry_id) return;
  try {
    await addEventNote(deps, { business_id: invoice.business_id, enquiry_id: invoice.enquiry_id, body });
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    deps.log.info({ invoice_id: invoice.id, reason: error.message }, 'payment note not written');
  }
}

/**
 * The invoice's refunded amount and status from its payments' refunds (what was refunded of what counted), in
 * the caller's transaction; a figure already known changes nothing. Writes the refund into the conversation.
 */
async function settleRefunds(deps: RefundDeps, invoiceId: string): Promise<InvoiceRow | undefined> {
  const refunded = (await paymentsOf(deps.db, [invoiceId])).reduce((sum, p) => sum + appliedRefunded(p), 0);
  const [before] = await deps.db
    .select({ refunded: invoices.amount_refunded_cents })
    .from(invoices)
    .where(eq(invoices.id, invoiceId))
    .for('update');
  const [updated] = await deps.db
    .update(invoices)
    .set({
      amount_refunded_cents: refunded,
      status: sql`case when ${refunded} >= ${invoices.amount_paid_cents} then 'refunded' else 'partially_refunded' end`,
      version: sql`${invoices.version} + 1`,
    })
    .where(
      and(
        eq(invoices.id, invoiceId),
        sql`${invoices.amount_paid_cents} > 0`,
        sql`${invoices.amount_refunded_cents} < ${refunded}`,
      ),
    )
    .returning();
  if (!updated) return undefined;
  // What became known as refunded now, dated now, for the reports' "refunded in the period".
  await deps.db.insert(invoiceRefunds).values({
    business_id: updated.business_id,
    invoice_id: updated.id,
    currency: updated.currency,
    amount_cents: refunded - (before?.refunded ?? 0),
  });
  deps.events.emit('invoice.updated', {
    business_id: updated.business_id,
    invoice: await invoiceDto(deps.db, deps.config.publicUrl, updated),
  });
  await noteQuietly(
    deps,
    updated,
    `Invoice ${updated.number}: ${formatMoney(updated.amount_refunded_cents, updated.currency)} refunded.`,
  );
  return updated;
}

type Deps = Pick<Context, 'db' | 'events' | 'config' | 'log' | 'jobs' | 'cache'>;

/**
 * One verified Stripe event, handled once: its id is kept in the same transaction as its effect, and so is
 * everything that follows from it in the database (the payment, the invoice, the note in the conversation,
 * closing it, the review request's job), so a crash right after the commit loses none of it and a failure
 * leaves it all to Stripe's retry. Screens are told after the commit. Events for accounts or invoices this
 * server does not know are acknowledged and logged.
 */
export async function handleStripeEvent(deps: Deps, event: Stripe.Event): Promise<'handled' | 'duplicate'> {
  // Before the transaction: the embedded database has one connection, which the transaction holds.
  await deps.jobs.prepare(reviewAfterPayment);
  const held = heldEvents();
  // What happens once the event's effect is committed, besides the held events.
  const after: ((d: Deps) => Promise<void>)[] = [];
  const outcome = await deps.db.transaction(async (tx) => {
    const [fresh] = await tx
      .insert(stripeEvents)
      .values({ id: event.id, type: event.type, account: event.account ?? null })
      .onConflictDoNothing()
      .returning({ id: stripeEvents.id });
    if (!fresh) return 'duplicate' as const;
    const txDeps = { ...deps, db: tx, events: held.events };
    // The platform's own events (no connected account): the businesses' Switchboard subscriptions.
    if (!event.account && BILLING_EVENTS.has(event.type)) {
      const businessId = await applyBillingEvent(tx, deps.config, deps.log, event);
      if (businessId) after.push(async (d) => accountChanged(d, businessId));
      return 'handled' as const;
    }
    switch (event.type) {
      case 'account.updated': {
        const account = event.data.object;
        if (!(await storeAccountState(tx, account.id, accountState(account))))
          deps.log.info({ account: account.id }, 'Stripe account.updated for an account not connected here');
        break;
      }
      case 'checkout.session.completed': {
        const session = event.data.object;
        if (session.mode !== 'payment' || session.payment_status !== 'paid') {
          deps.log.info({ event: event.id }, 'Stripe checkout.session.completed that is no invoice payment');
          break;
        }
        const invoice = await invoiceOfEvent(txDeps, event, session.metadata?.invoice_id, session.id);
        const intent =
          typeof session.payment_intent === 'string' ? session.payment_intent : session.payment_intent?.id;
        if (invoice && intent)
          await recordPayment(txDeps, invoice, {
            intent,
            session: session.id,
            currency: session.currency ?? '',
            amount: session.amount_total ?? 0,
          });
        else if (invoice)
          deps.log.warn({ event: event.id }, 'Stripe paid Checkout session without a payment');
        break;
      }
      case 'payment_intent.succeeded': {
        const intent = event.data.object;
        const invoice = await invoiceOfEvent(txDeps, event, intent.metadata?.invoice_id, null);
        if (invoice)
          await recordPayment(txDeps, invoice, {
            intent: intent.id,
            session: null,
            currency: intent.currency,
            amount: intent.amount_received,
          });
        break;
      }
      case 'payment_intent.payment_failed': {
        const intent = event.data.object;
        const invoice = await invoiceOfEvent(txDeps, event, intent.metadata?.invoice_id, null);
        if (invoice) {
          const reason = intent.last_payment_error?.message ?? 'The payment did not go through.';
          const [updated] = await tx
            .update(invoices)
            .set({ last_payment_error: reason })
            .where(eq(invoices.id, invoice.id))
            .returning();
          held.events.emit('invoice.updated', {
            business_id: updated!.business_id,
            invoice: await invoiceDto(tx, deps.config.publicUrl, updated!),
          });
          // Staff learn of it in the thread, where they would otherwise wait for a payment that is not coming.
          await noteQuietly(txDeps, updated!, declinedNote(updated!.number, reason));
        }
        break;
      }
      case 'charge.refunded': {
        const charge = event.data.object;
        const intent =
          typeof charge.payment_intent === 'string' ? charge.payment_intent : charge.payment_intent?.id;
        const [payment] = intent
          ? await tx.select().from(invoicePayments).where(eq(invoicePayments.payment_intent_id, intent))
          : [];
        const [invoice] = payment
          ? await tx.select().from(invoices).where(eq(invoices.id, payment.invoice_id))
          : [];
        if (!payment || !invoice || !(await ownsInvoice(txDeps, event, invoice))) {
          deps.log.info({ event: event.id }, 'Stripe charge.refunded for no invoice here');
          break;
        }
        // Refunds made anywhere (here, or the Stripe dashboard) count: Stripe's figure is the charge's total.
        await tx
          .update(invoicePayments)
          .set({
            refunded_cents: sql`greatest(${invoicePayments.refunded_cents}, ${fromStripeAmount(charge.amount_refunded, payment.currency)})`,
          })
          .where(eq(invoicePayments.id, payment.id));
        await settleRefunds(txDeps, invoice.id);
        break;
      }
      default:
        deps.log.debug({ type: event.type }, 'Stripe event not used');
    }
    return 'handled' as const;
  });
  held.release(deps.events);
  for (const step of after) await step(deps);
  return outcome;
}

/** The line a declined card leaves in the invoice's conversation. */
function declinedNote(number: string, reason: string): string {
  return `Card payment for invoice ${number} was declined — the customer can try again. Stripe said: ${reason}`;
}

/** The event's account must be the invoice's business's: no other account can pay an invoice. */
async function ownsInvoice(
  deps: Pick<Context, 'db'>,
  event: Stripe.Event,
  invoice: InvoiceRow,
): Promise<boolean> {
  const [business] = await deps.db
    .select({ account: businesses.stripe_account_id })
    .from(businesses)
    .where(eq(businesses.id, invoice.business_id));
  return Boolean(event.account && business?.account === event.account);
}

/**
 * The invoice an event is about: the one its metadata names (every session and payment made here carries it),
 * else the one whose open session it is. Locked, so payments of one invoice are counted one at a time.
 */
async function invoiceOfEvent(
  deps: Deps,
  event: Stripe.Event,
  invoiceId: string | undefined,
  sessionId: string | null,
): Promise<InvoiceRow | null> {
  const byId = invoiceId && isUuid(invoiceId) ? eq(invoices.id, invoiceId) : null;
  const where = byId ?? (sessionId ? eq(invoices.checkout_session_id, sessionId) : null);
  const [invoice] = where ? await deps.db.select().from(invoices).where(where).for('update') : [];
  if (!invoice || !(await ownsInvoice(deps, event, invoice))) {
    deps.log.info(
      { event: event.id, type: event.type, account: event.account },
      'Stripe event for no invoice here',
    );
    return null;
  }
  return invoice;
}

/**
 * Records a payment Stripe reports, once (the second of `checkout.session.completed` and
 * `payment_intent.succeeded` finds it): compared with what the invoice owes now, in its currency, it makes the
 * invoice paid or part paid, or is kept as owed back to the customer (see `applyPayment`). In the same
 * transaction: the note in the conversation, and once paid in full, closing the conversation when the sender
 * asked and the review request's job.
 */
async function recordPayment(
  deps: Deps,
  invoice: InvoiceRow,
  payment: { intent: string; session: string | null; currency: string; amount: number },
): Promise<void> {
  const { db } = deps;
  const [known] = await db
    .select({ id: invoicePayments.id })
    .from(invoicePayments)
    .where(eq(invoicePayments.payment_intent_id, payment.intent));
  if (known) return;
  const currency = payment.currency.toUpperCase();
  const amount = isCurrencyCode(currency) ? fromStripeAmount(payment.amount, currency) : payment.amount;
  const outcome = applyPayment(invoice, { currency, amount });
  await db.insert(invoicePayments).values({
    business_id: invoice.business_id,
    invoice_id: invoice.id,
    payment_intent_id: payment.intent,
    checkout_session_id: payment.session,
    currency,
    amount_cents: amount,
    applied_cents: outcome.applied,
    unapplied_reason: outcome.applied < amount ? outcome.reason : null,
  });
  const usedSession = payment.session !== null && invoice.checkout_session_id === payment.session;
  const [updated] = await db
    .update(invoices)
    .set({
      updated_at: new Date(),
      ...(outcome.applied > 0
        ? {
            status: outcome.status,
            amount_paid_cents: outcome.paid,
            paid_at: outcome.status === 'paid' ? new Date() : null,
            payment_intent_id: sql`coalesce(${invoices.payment_intent_id}, ${payment.intent})`,
            last_payment_error: null,
            version: sql`${invoices.version} + 1`,
          }
        : {}),
      // The session it was paid on is used up: paying the rest takes a new one.
      ...(usedSession
        ? {
            checkout_session_id: null,
            checkout_url: null,
            checkout_amount_cents: null,
            checkout_expires_at: null,
          }
        : {}),
    })
    .where(eq(invoices.id, invoice.id))
    .returning();
  deps.events.emit('invoice.updated', {
    business_id: updated!.business_id,
    invoice: await invoiceDto(db, deps.config.publicUrl, updated!),
  });
  if (!updated!.enquiry_id) return;
  await noteQuietly(deps, updated!, paymentNote(invoice, { currency, amount }, outcome));
  if (outcome.applied === 0 || outcome.status !== 'paid') return;
  if (updated!.close_on_paid) {
    try {
      await closeEnquiryFor(deps, updated!.business_id, updated!.enquiry_id);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      deps.log.info({ invoice_id: updated!.id, reason: error.message }, 'conversation not closed on payment');
    }
  }
  await queueReviewAfterPayment(deps, updated!.id);
}
