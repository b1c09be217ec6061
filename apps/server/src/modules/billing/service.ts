import { businesses, type DbOrTx, users } from '@switchboard/db';
import {
  formatMoney,
  type PromoCheck,
  type SubscriptionView,
  subscriptionStatus,
  trialRemainingDays,
} from '@switchboard/shared';
import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { Context, Deps } from '../../context.ts';
import { AppError, notFound } from '../../errors.ts';
import {
  type Billing,
  firstPaymentCents,
  type PaidPlan,
  type Promotion,
} from '../../integrations/stripe/billing.ts';
import { recordAudit } from '../../lib/audit.ts';
import { requireBusiness, requireOwner } from '../../plugins/auth.ts';
import { messagesSentToday } from '../businesses/service.ts';

type Ctx = Pick<Context, 'db' | 'config' | 'actor' | 'billing' | 'limiter' | 'cache' | 'events'>;
type Business = typeof businesses.$inferSelect;

/** After a change to a business's account: its cached features go, and its screens read the account again. */
export async function accountChanged(
  deps: Pick<Deps, 'cache' | 'events'>,
  businessId: string,
): Promise<void> {
  deps.cache.invalidate(businessId);
  deps.events.emit('account.changed', { business_id: businessId });
}

async function loadBusiness(db: DbOrTx, id: string): Promise<Business> {
  const [b] = await db.select().from(businesses).where(eq(businesses.id, id));
  if (!b) throw notFound('Business');
  return b;
}

const notSold = () =>
  new AppError(
    'service_unavailable',
    'Plans cannot be bought on this Switchboard: no payment provider is set up. Ask whoever runs it.',
  );

function needBilling(billing: Billing | null): Billing {
  if (!billing) throw notSold();
  return billing;
}

/** `GET /business/mybusiness/subscription`: anyone in the business may see it; changing it is the owner's. */
export async function getSubscription(ctx: Ctx): Promise<z.input<typeof SubscriptionView>> {
  const a = requireBusiness(ctx.actor);
  const b = await loadBusiness(ctx.db, a.business_id);
  const prices = ctx.billing ? await ctx.billing.prices().catch(() => []) : [];
  return {
    status: subscriptionStatus(b),
    plan: b.plan,
    trial_end_date: b.trial_end_date?.toISOString() ?? null,
    trial_days_left: b.plan === 'trial' && b.trial_end_date ? trialRemainingDays(b.trial_end_date) : null,
    next_invoice_attempt: b.next_invoice_attempt?.toISOString() ?? null,
    renews_at: b.subscription_renews_at?.toISOString() ?? null,
    ends_at: b.subscription_ends_at?.toISOString() ?? null,
    message_limit: b.message_limit,
    messages_sent_today: messagesSentToday(b),
    can_manage_billing: Boolean(b.stripe_customer_id),
    // What the running subscription was bought with; an ended one's discount is history.
    promotion: b.plan === 'trial' || b.subscription_past_due ? null : (b.subscription_promotion ?? null),
    referral_code: b.referral_code,
    billing: ctx.billing?.mode ?? 'none',
    plans: prices.map((p) => ({ ...p, message_limit: ctx.config.plans.messageLimit[p.plan] })),
  };
}

/** The trial's end while it is still running: a plan bought now starts charging then. */
export const runningTrialEnd = (b: Business): Date | null =>
  b.plan === 'trial' && b.trial_end_date && b.trial_end_date > new Date() ? b.trial_end_date : null;

/** `GET /business/mybusiness/usage`: one row read, for the composer's "messages left today". */
export async function getUsage(ctx: Pick<Context, 'db' | 'actor'>) {
  const a = requireBusiness(ctx.actor);
  const b = await loadBusiness(ctx.db, a.business_id);
  const sent = messagesSentToday(b);
  return {
    messages_sent_today: sent,
    message_limit: b.message_limit,
    remaining: Math.max(0, b.message_limit - sent),
  };
}

/** The business's Stripe customer, made (once) the first time it buys a plan. */
async function customerOf(ctx: Ctx, billing: Billing, b: Business): Promise<string> {
  if (b.stripe_customer_id) return b.stripe_customer_id;
  const [owner] = b.owner_user_id
    ? await ctx.db.select({ email: users.email }).from(users).where(eq(users.id, b.owner_user_id))
    : [];
  const customer = await billing.customer({ business_id: b.id, name: b.name, email: owner?.email ?? null });
  await ctx.db.update(businesses).set({ stripe_customer_id: customer }).where(eq(businesses.id, b.id));
  return customer;
}

const LIVE_STATUSES = new Set(['active', 'trialing', 'past_due']);

/**
 * `PUT /business/mybusiness/change-subscription-plan`: a business without a running subscription goes to Stripe
 * Checkout for the plan (its remaining trial days kept, a checked promotion code applied, or a box for one);
 * one with a subscription changes it in Stripe's portal, where the proration is shown before it is agreed.
 */
export async function changePlan(ctx: Ctx, input: { plan: PaidPlan; promotion_code?: string | null }) {
  const a = requireOwner(ctx.actor, 'choose the plan');
  const billing = needBilling(ctx.billing);
  const b = await loadBusiness(ctx.db, a.business_id);
  const back = `${ctx.config.publicUrl}/settings/subscription`;
  if (
    b.stripe_subscription_id &&
    LIVE_STATUSES.has(b.stripe_subscription_status ?? '') &&
    !b.subscription_past_due
  ) {
    const url = await billing.portal({ customer: await customerOf(ctx, billing, b), return_url: back });
    return { kind: 'portal' as const, url };
  }
  const promotion = input.promotion_code ? await checkedPromotion(ctx, billing, input.promotion_code) : null;
  const customer = await customerOf(ctx, billing, b);
  const trialEnd = runningTrialEnd(b);
  const session = await billing.checkout({
    business_id: b.id,
    customer,
    plan: input.plan,
    trial_end: trialEnd,
    promotion: promotion?.id ?? null,
    promotion_label: promotion ? { code: promotion.code, description: describePromotion(promotion) } : null,
    success_url: `${back}?checkout=done`,
    cancel_url: `${back}?checkout=cancelled`,
    // A double click makes one session; a new attempt a minute later, a new one.
    idempotency_key: `subscribe:${b.id}:${input.plan}:${promotion?.id ?? '-'}:${Math.floor(Date.now() / 60_000)}`,
  });
  await recordAudit(ctx.db, a, 'subscription.checkout', {
    target: b.id,
    detail: { plan: input.plan, promotion: promotion?.code ?? null, session: session.id },
  });
  return { kind: 'checkout' as const, url: session.url };
}

/** Promotion codes are guessable strings: a business may try a few a minute. */
const PROMO_RULE = { name: 'promo_code', points: 10, windowSeconds: 600 };

async function checkedPromotion(ctx: Ctx, billing: Billing, code: string): Promise<Promotion> {
  const a = requireBusiness(ctx.actor);
  const wait = await ctx.limiter.take(PROMO_RULE, a.business_id);
  if (wait) {
    throw new AppError(
      'rate_limited',
      `Too many codes tried. Please try again in ${Math.ceil(wait / 60)} minutes.`,
      {
        headers: { 'retry-after': String(wait) },
      },
    );
  }
  const promotion = await billing.promotion(code.trim());
  if (!promotion)
    throw new AppError('unprocessable', `The code ${code.trim()} is not valid, or has expired.`);
  return promotion;
}

export function describePromotion(p: Omit<Promotion, 'id'>): string {
  const off =
    p.percent_off !== null
      ? `${p.percent_off}% off`
      : `${formatMoney(p.amount_off_cents ?? 0, p.currency ?? 'AUD')} off`;
  if (p.duration === 'forever') return `${off} for as long as you subscribe`;
  if (p.duration === 'repeating' && p.duration_in_months)
    return `${off} for ${p.duration_in_months} month${p.duration_in_months === 1 ? '' : 's'}`;
  return `${off} your first payment`;
}

/** `PUT /business/mybusiness/validate-promo-code`: the code's discount on the chosen plan, before paying. */
export async function validatePromo(
  ctx: Ctx,
  input: { code: string; plan: PaidPlan },
): Promise<z.input<typeof PromoCheck>> {
  requireOwner(ctx.actor, 'choose the plan');
  const billing = needBilling(ctx.billing);
  const promotion = await checkedPromotion(ctx, billing, input.code);
  const price = (await billing.prices()).find((p) => p.plan === input.plan);
  if (!price) throw new AppError('unprocessable', `The ${input.plan} plan is not on offer here.`);
  if (
    promotion.amount_off_cents !== null &&
    promotion.currency?.toUpperCase() !== price.currency.toUpperCase()
  ) {
    throw new AppError(
      'unprocessable',
      `The code ${promotion.code} is for payments in ${promotion.currency?.toUpperCase()}.`,
    );
  }
  const first = firstPaymentCents(price.amount_cents, promotion);
  return {
    code: promotion.code,
    description: describePromotion(promotion),
    percent_off: promotion.percent_off,
    amount_off_cents: promotion.amount_off_cents,
    duration: promotion.duration,
    duration_in_months: promotion.duration_in_months,
    plan: input.plan,
    currency: price.currency,
    price_cents: price.amount_cents,
    first_payment_cents: first,
  };
}

/** Stripe's customer portal: the card, invoices, and cancelling. */
export async function billingPortal(ctx: Ctx): Promise<{ url: string }> {
  const a = requireOwner(ctx.actor, 'manage the subscription');
  const billing = needBilling(ctx.billing);
  const b = await loadBusiness(ctx.db, a.business_id);
  if (!b.stripe_customer_id) {
    throw new AppError('conflict', 'There is no subscription to manage yet: choose a plan first.');
  }
  const url = await billing.portal({
    customer: b.stripe_customer_id,
    return_url: `${ctx.config.publicUrl}/settings/subscription`,
  });
  return { url };
}
