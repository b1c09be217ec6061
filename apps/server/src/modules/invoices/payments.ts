import { businesses, invoices, locations, stripeEvents, users } from '@switchboard/db';
import {
  formatMoney,
  formatRate,
  type InvoiceDto,
  PAYABLE_INVOICE_STATUSES,
  type RefundInvoiceRequest,
  type StripeAccountDto,
} from '@switchboard/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type Stripe from 'stripe';
import type { z } from 'zod';
import type { Context } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { accountState, type Payments } from '../../integrations/stripe/payments.ts';
import { requireOwner } from '../../plugins/auth.ts';
import { applyBillingEvent, BILLING_EVENTS } from '../billing/events.ts';
import { accountChanged } from '../billing/service.ts';
import { closeEnquiryFor } from '../enquiries/service.ts';
import { addEventNote } from '../notes/service.ts';
import { queueReviewAfterPayment } from '../reviews/service.ts';
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

/**
 * `POST /business/invoices/secret/{id}/checkout` (public): a Stripe Checkout session for what is owed, a direct
 * charge on the business's connected account. The same invoice version asks with the same idempotency key,
 * so a double tap makes one session.
 */
export async function startCheckout(app: FastifyInstance, secret: string): Promise<{ url: string }> {
  const payments = paymentsOrRefuse(app.payments);
  const invoice = await invoiceBySecret(app, secret);
  if (!PAYABLE_INVOICE_STATUSES.includes(invoice.status))
    throw new AppError(
      'conflict',
      `Invoice ${invoice.number} cannot be paid: it is ${invoice.status.replace('_', ' ')}.`,
    );
  const [business] = await app.db.select().from(businesses).where(eq(businesses.id, invoice.business_id));
  if (!business?.stripe_account_id || !business.stripe_charges_enabled)
    throw new AppError('conflict', `${business?.name ?? 'The business'} cannot take card payments yet.`);
  const items = await itemsOf(app.db, invoice.id);
  const lines = items.map((item) => ({
    name: Number(item.quantity) === 1 ? item.description : `${item.description} × ${Number(item.quantity)}`,
    amount_cents: item.amount_cents + item.tax_cents,
  }));
  if (invoice.surcharge_cents > 0)
    lines.push({
      name: `Card surcharge (${formatRate(invoice.surcharge_bps)})`,
      amount_cents: invoice.surcharge_cents,
    });
  const pay = payUrl(app.config.publicUrl, invoice.secret);
  try {
    const session = await payments.checkout({
      account: business.stripe_account_id,
      invoice_id: invoice.id,
      business_id: invoice.business_id,
      currency: invoice.currency,
      lines: lines.filter((l) => l.amount_cents > 0),
      application_fee_cents: Math.round(
        (invoice.total_cents * app.config.payments.applicationFeeBps) / 10_000,
      ),
      success_url: `${pay}?paid=1`,
      cancel_url: pay,
      customer_email: null,
      idempotency_key: `checkout:${invoice.id}:v${invoice.version}`,
    });
    await app.db.update(invoices).set({ checkout_session_id: session.id }).where(eq(invoices.id, invoice.id));
    return { url: session.url };
  } catch (error) {
    if (error instanceof AppError) throw error;
    app.log.warn({ err: error, invoice_id: invoice.id }, 'starting checkout failed');
    throw providerFailed('start the payment', error);
  }
}

export async function invoiceBySecret(app: Pick<FastifyInstance, 'db'>, secret: string): Promise<InvoiceRow> {
  const [invoice] = /^[A-Za-z0-9_-]{20,64}$/.test(secret)
    ? await app.db.select().from(invoices).where(eq(invoices.secret, secret))
    : [];
  if (!invoice) throw new AppError('not_found', 'This invoice link is not valid.');
  return invoice;
}

/**
 * `POST /business/customer-invoices/{id}/refund`: all that is left, or part; through Stripe on the connected
 * account (one refund per amount asked, however often the request is retried).
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
  if (!invoice.payment_intent_id || left <= 0)
    throw new AppError('conflict', `${invoice.number} has nothing paid by card left to refund.`);
  const amount = input.amount_cents ?? left;
  if (amount > left)
    throw new AppError(
      'unprocessable',
      `At most ${formatMoney(left, invoice.currency)} of ${invoice.number} can be refunded.`,
    );
  const [business] = await ctx.db.select().from(businesses).where(eq(businesses.id, a.business_id));
  try {
    await payments.refund({
      account: business!.stripe_account_id!,
      payment_intent: invoice.payment_intent_id,
      amount_cents: amount,
      idempotency_key: `refund:${invoice.id}:${invoice.amount_refunded_cents}:${amount}`,
    });
  } catch (error) {
    throw providerFailed('refund the payment', error);
  }
  const updated = await applyRefunded(ctx, invoice.id, invoice.amount_refunded_cents + amount);
  return invoiceDto(ctx.db, ctx.config.publicUrl, updated ?? invoice);
}

/** Sets how much of an invoice is refunded and the status that follows; a figure already known changes nothing. */
async function applyRefunded(
  deps: Pick<Context, 'db' | 'events' | 'config'>,
  invoiceId: string,
  refunded: number,
): Promise<InvoiceRow | undefined> {
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
  if (updated) {
    deps.events.emit('invoice.updated', {
      business_id: updated.business_id,
      invoice: await invoiceDto(deps.db, deps.config.publicUrl, updated),
    });
    if (updated.enquiry_id)
      await addEventNote(deps, {
        business_id: updated.business_id,
        enquiry_id: updated.enquiry_id,
        body: `Invoice ${updated.number}: ${formatMoney(updated.amount_refunded_cents, updated.currency)} refunded.`,
      }).catch(() => undefined);
  }
  return updated;
}

type Deps = Pick<Context, 'db' | 'events' | 'config' | 'log' | 'jobs' | 'cache'>;

/**
 * One verified Stripe event, handled once (its id is kept in the same transaction as its effect, so a
 * redelivery changes nothing and a failure leaves it to Stripe's retry). Events for accounts or invoices this
 * server does not know are acknowledged and logged.
 */
export async function handleStripeEvent(deps: Deps, event: Stripe.Event): Promise<'handled' | 'duplicate'> {
  // What happens once the event's effect is committed (told live, written into the conversation).
  const after: ((d: Deps) => Promise<void>)[] = [];
  const outcome = await deps.db.transaction(async (tx) => {
    const [fresh] = await tx
      .insert(stripeEvents)
      .values({ id: event.id, type: event.type, account: event.account ?? null })
      .onConflictDoNothing()
      .returning({ id: stripeEvents.id });
    if (!fresh) return 'duplicate' as const;
    const txDeps = { ...deps, db: tx };
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
        const invoice = await invoiceOfEvent(txDeps, event, session.metadata?.invoice_id, {
          checkout_session_id: session.id,
        });
        const intent =
          typeof session.payment_intent === 'string' ? session.payment_intent : session.payment_intent?.id;
        if (invoice)
          after.push(
            ...(await markPaid(txDeps, invoice, session.amount_total ?? invoice.total_cents, intent ?? null)),
          );
        break;
      }
      case 'payment_intent.succeeded': {
        const intent = event.data.object;
        const invoice = await invoiceOfEvent(txDeps, event, intent.metadata?.invoice_id, {});
        if (invoice) after.push(...(await markPaid(txDeps, invoice, intent.amount_received, intent.id)));
        break;
      }
      case 'payment_intent.payment_failed': {
        const intent = event.data.object;
        const invoice = await invoiceOfEvent(txDeps, event, intent.metadata?.invoice_id, {});
        if (invoice) {
          const reason = intent.last_payment_error?.message ?? 'The payment did not go through.';
          const [updated] = await tx
            .update(invoices)
            .set({ last_payment_error: reason })
            .where(eq(invoices.id, invoice.id))
            .returning();
          after.push(async (d) => {
            d.events.emit('invoice.updated', {
              business_id: updated!.business_id,
              invoice: await invoiceDto(d.db, d.config.publicUrl, updated!),
            });
          });
        }
        break;
      }
      case 'charge.refunded': {
        const charge = event.data.object;
        const intent =
          typeof charge.payment_intent === 'string' ? charge.payment_intent : charge.payment_intent?.id;
        const [invoice] = intent
          ? await tx.select().from(invoices).where(eq(invoices.payment_intent_id, intent))
          : [];
        if (!invoice || !(await ownsInvoice(txDeps, event, invoice))) {
          deps.log.info({ event: event.id }, 'Stripe charge.refunded for no invoice here');
          break;
        }
        after.push(async (d) => {
          await applyRefunded(d, invoice.id, charge.amount_refunded);
        });
        break;
      }
      default:
        deps.log.debug({ type: event.type }, 'Stripe event not used');
    }
    return 'handled' as const;
  });
  for (const step of after) await step(deps);
  return outcome;
}

/** The event's account must be the invoice's business's: no other account can mark an invoice paid. */
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

async function invoiceOfEvent(
  deps: Deps,
  event: Stripe.Event,
  invoiceId: string | undefined,
  by: { checkout_session_id?: string },
): Promise<InvoiceRow | null> {
  const [invoice] = by.checkout_session_id
    ? await deps.db.select().from(invoices).where(eq(invoices.checkout_session_id, by.checkout_session_id))
    : invoiceId && /^[0-9a-f-]{36}$/i.test(invoiceId)
      ? await deps.db.select().from(invoices).where(eq(invoices.id, invoiceId))
      : [];
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
 * Records a payment (once: the second of `checkout.session.completed` and `payment_intent.succeeded` finds it
 * paid). Answers what to do after the commit: tell screens, write "paid" into the conversation, close it
 * when the sender asked.
 */
async function markPaid(
  deps: Deps,
  invoice: InvoiceRow,
  amount: number,
  paymentIntent: string | null,
): Promise<((d: Deps) => Promise<void>)[]> {
  const [updated] = await deps.db
    .update(invoices)
    .set({
      status: 'paid',
      amount_paid_cents: amount,
      paid_at: new Date(),
      payment_intent_id: paymentIntent,
      last_payment_error: null,
      version: sql`${invoices.version} + 1`,
    })
    .where(and(eq(invoices.id, invoice.id), eq(invoices.amount_paid_cents, 0)))
    .returning();
  if (!updated) {
    if (paymentIntent && !invoice.payment_intent_id)
      await deps.db
        .update(invoices)
        .set({ payment_intent_id: paymentIntent })
        .where(eq(invoices.id, invoice.id));
    return [];
  }
  return [
    async (d) => {
      const dto = await invoiceDto(d.db, d.config.publicUrl, updated);
      d.events.emit('invoice.updated', { business_id: updated.business_id, invoice: dto });
      if (!updated.enquiry_id) return;
      await addEventNote(d, {
        business_id: updated.business_id,
        enquiry_id: updated.enquiry_id,
        body: `Invoice ${updated.number} paid: ${formatMoney(amount, updated.currency)}.`,
      });
      if (updated.close_on_paid) await closeEnquiryFor(d, updated.business_id, updated.enquiry_id);
      await queueReviewAfterPayment(d, updated.id);
    },
  ];
}
