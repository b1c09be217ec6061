import { businesses, type DbOrTx } from '@switchboard/db';
import { isUuid } from '@switchboard/shared';
import { eq } from 'drizzle-orm';
import type Stripe from 'stripe';
import type { Config } from '../../config.ts';

type Business = typeof businesses.$inferSelect;
type Log = { info(obj: object, msg: string): void };

/** The Stripe Billing events that move a business's subscription, and how each is read. */
export const BILLING_EVENTS = new Set([
  'checkout.session.completed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'invoice.paid',
  'invoice.payment_failed',
]);

const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === 'string' ? value : (value?.id ?? null);

async function byId(tx: DbOrTx, id: string | null | undefined): Promise<Business | undefined> {
  if (!id || !isUuid(id)) return undefined;
  const [row] = await tx.select().from(businesses).where(eq(businesses.id, id)).for('update');
  return row;
}

async function byCustomer(tx: DbOrTx, customer: string | null): Promise<Business | undefined> {
  if (!customer) return undefined;
  const [row] = await tx
    .select()
    .from(businesses)
    .where(eq(businesses.stripe_customer_id, customer))
    .for('update');
  return row;
}

/** The plan a subscription is for: its price, as configured, else what Switchboard wrote in its metadata. */
function planOf(config: Config, sub: Stripe.Subscription): 'monthly' | 'annual' | null {
  const price = sub.items?.data?.[0]?.price;
  const priceId = typeof price === 'string' ? price : price?.id;
  if (priceId && priceId === config.plans.stripePrice.monthly) return 'monthly';
  if (priceId && priceId === config.plans.stripePrice.annual) return 'annual';
  const interval = typeof price === 'object' ? price?.recurring?.interval : undefined;
  const plan = sub.metadata?.plan;
  if (plan === 'monthly' || plan === 'annual') return plan;
  if (interval === 'year') return 'annual';
  if (interval === 'month') return 'monthly';
  return null;
}

const date = (seconds: number | null | undefined) => (seconds ? new Date(seconds * 1000) : null);

/**
 * Applies one verified Billing event to the business it is for, in the caller's transaction. Answers the
 * business whose account changed, or null when the event is not for a business here (acknowledged and logged:
 * Stripe must not retry what will never match).
 *
 * Stripe's `past_due` is a payment being retried: the business keeps sending and sees "payment failed" with the
 * next attempt (spec §4's payment_failed). A subscription that is unpaid, cancelled or expired sets
 * `subscription_past_due`: spec §4 reads that, on a paid plan, as the subscription having expired.
 */
export async function applyBillingEvent(
  tx: DbOrTx,
  config: Config,
  log: Log,
  event: Stripe.Event,
): Promise<string | null> {
  const unknown = (detail: object) => {
    log.info({ event: event.id, type: event.type, ...detail }, 'Stripe billing event for no business here');
    return null;
  };
  const update = async (b: Business, patch: Partial<Business>) => {
    await tx.update(businesses).set(patch).where(eq(businesses.id, b.id));
    return b.id;
  };
  // Stripe does not deliver in order: a subscription or invoice event older than the last one applied to the
  // business (a retried `payment_failed` arriving after `paid`) would undo a newer state, so it is left out.
  const createdAt = new Date(event.created * 1000);
  const stale = (b: Business) =>
    b.stripe_subscription_event_at !== null && createdAt < b.stripe_subscription_event_at;
  const ordered = async (b: Business, patch: Partial<Business>) => {
    if (stale(b)) {
      log.info(
        { event: event.id, type: event.type, applied_up_to: b.stripe_subscription_event_at },
        'Stripe billing event older than the one applied: left out',
      );
      return null;
    }
    return update(b, { ...patch, stripe_subscription_event_at: createdAt });
  };

  switch (event.type) {
    case 'checkout.session.completed': {
      const session = event.data.object;
      if (session.mode !== 'subscription') return null;
      const b =
        (await byId(tx, session.metadata?.business_id ?? session.client_reference_id)) ??
        (await byCustomer(tx, idOf(session.customer)));
      if (!b) return unknown({ client_reference_id: session.client_reference_id });
      const plan = session.metadata?.plan;
      const code = session.metadata?.promotion_code;
      return update(b, {
        // The code chosen in Switchboard before paying, or none: a code typed on Stripe's own page is not named
        // in the event, and an earlier subscription's code is not this one's.
        subscription_promotion: code
          ? { code, description: session.metadata?.promotion_description ?? code }
          : null,
        stripe_customer_id: idOf(session.customer) ?? b.stripe_customer_id,
        stripe_subscription_id: idOf(session.subscription) ?? b.stripe_subscription_id,
        ...(plan === 'monthly' || plan === 'annual'
          ? { plan, message_limit: config.plans.messageLimit[plan] }
          : {}),
        ...(session.payment_status === 'paid' || session.payment_status === 'no_payment_required'
          ? { subscription_past_due: false, next_invoice_attempt: null }
          : {}),
      });
    }
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted': {
      const sub = event.data.object;
      const b = (await byId(tx, sub.metadata?.business_id)) ?? (await byCustomer(tx, idOf(sub.customer)));
      if (!b) return unknown({ subscription: sub.id });
      // A newer subscription replaced this one: what happens to the old one does not change the business.
      if (
        b.stripe_subscription_id &&
        b.stripe_subscription_id !== sub.id &&
        event.type !== 'customer.subscription.created'
      )
        return unknown({ subscription: sub.id, current: b.stripe_subscription_id });
      const ended =
        event.type === 'customer.subscription.deleted' ||
        ['canceled', 'unpaid', 'incomplete_expired', 'paused'].includes(sub.status);
      // A first payment still being made changes nothing yet.
      if (!ended && sub.status === 'incomplete')
        return ordered(b, { stripe_subscription_id: sub.id, stripe_subscription_status: sub.status });
      const plan = planOf(config, sub);
      const item = sub.items?.data?.[0];
      return ordered(b, {
        stripe_customer_id: idOf(sub.customer) ?? b.stripe_customer_id,
        stripe_subscription_id: sub.id,
        stripe_subscription_status: event.type === 'customer.subscription.deleted' ? 'canceled' : sub.status,
        ...(plan ? { plan, message_limit: config.plans.messageLimit[plan] } : {}),
        subscription_past_due: ended,
        ...(ended || sub.status !== 'past_due' ? { next_invoice_attempt: null } : {}),
        subscription_renews_at: ended ? null : date(item?.current_period_end),
        subscription_ends_at: ended ? (date(sub.ended_at) ?? new Date()) : date(sub.cancel_at),
      });
    }
    case 'invoice.paid': {
      const invoice = event.data.object;
      const b =
        (await byCustomer(tx, idOf(invoice.customer))) ??
        (await byId(tx, invoice.parent?.subscription_details?.metadata?.business_id));
      if (!b) return unknown({ customer: idOf(invoice.customer) });
      return ordered(b, { subscription_past_due: false, next_invoice_attempt: null });
    }
    case 'invoice.payment_failed': {
      const invoice = event.data.object;
      const b =
        (await byCustomer(tx, idOf(invoice.customer))) ??
        (await byId(tx, invoice.parent?.subscription_details?.metadata?.business_id));
      if (!b) return unknown({ customer: idOf(invoice.customer) });
      const next = date(invoice.next_payment_attempt);
      // No further attempt: the subscription is over until the owner pays (Stripe follows with its own events).
      return ordered(
        b,
        next ? { next_invoice_attempt: next } : { next_invoice_attempt: null, subscription_past_due: true },
      );
    }
    default:
      return null;
  }
}
