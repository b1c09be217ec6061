import { z } from 'zod';
import { PlanSchema } from './business.ts';
import { Timestamp } from './fields.ts';

export const SUBSCRIPTION_STATUSES = [
  'trial',
  'monthly',
  'annual',
  'payment_failed',
  'trial_expired',
  'monthly_subscription_expired',
  'annual_subscription_expired',
] as const;

export const PaidPlanSchema = z.enum(['monthly', 'annual'], 'Choose the monthly or the annual plan');

export const PlanOffer = z.object({
  plan: PaidPlanSchema,
  amount_cents: z.number(),
  currency: z.string(),
  interval: z.enum(['month', 'year']),
  message_limit: z.number(),
});

/** `GET /business/mybusiness/subscription`: where the account stands, and the plans on offer. */
export const SubscriptionView = z.object({
  status: z.enum(SUBSCRIPTION_STATUSES),
  plan: PlanSchema,
  trial_end_date: Timestamp.nullable(),
  /** Spec §4's whole days (Australia/Melbourne); null when not on a trial. */
  trial_days_left: z.number().nullable(),
  next_invoice_attempt: Timestamp.nullable(),
  renews_at: Timestamp.nullable(),
  /** The subscription ends (or ended) then: cancelled at the period's end, or over. */
  ends_at: Timestamp.nullable(),
  message_limit: z.number(),
  messages_sent_today: z.number(),
  /** A Stripe customer exists: the card and the subscription are managed in Stripe's portal. */
  can_manage_billing: z.boolean(),
  /** The promotion code the running subscription was bought with, and its discount in words. */
  promotion: z.object({ code: z.string(), description: z.string() }).nullable(),
  /** The business's referral link's code: `/signup?ref={code}`. */
  referral_code: z.string().nullable(),
  /** How plans are bought here: Stripe, the sandbox, or not at all. */
  billing: z.enum(['stripe', 'sandbox', 'none']),
  plans: z.array(PlanOffer),
});
export type SubscriptionView = z.input<typeof SubscriptionView>;

/** `PUT /business/mybusiness/change-subscription-plan` */
export const ChangePlanRequest = z.strictObject({
  plan: PaidPlanSchema,
  promotion_code: z.string().trim().max(100).nullish(),
});
/** Where to send the owner: Stripe Checkout for a new subscription, the portal to change an existing one. */
export const BillingRedirect = z.object({ kind: z.enum(['checkout', 'portal']), url: z.string() });

/** `PUT /business/mybusiness/validate-promo-code` */
export const ValidatePromoRequest = z.strictObject({
  code: z.string().trim().min(1, 'Please enter a code').max(100),
  plan: PaidPlanSchema,
});
export const PromoCheck = z.object({
  code: z.string(),
  /** In words: "20% off for 3 months". */
  description: z.string(),
  percent_off: z.number().nullable(),
  amount_off_cents: z.number().nullable(),
  duration: z.enum(['once', 'repeating', 'forever']),
  duration_in_months: z.number().nullable(),
  plan: PaidPlanSchema,
  currency: z.string(),
  price_cents: z.number(),
  /** The plan's first payment with the discount. */
  first_payment_cents: z.number(),
});

export const PortalLink = z.object({ url: z.string() });

/** `GET /business/mybusiness/usage`: today's messages against the daily limit (the composer's counter). */
export const DailyUsage = z.object({
  messages_sent_today: z.number(),
  message_limit: z.number(),
  remaining: z.number(),
});

/** Sandbox mode's stand-in for Stripe Checkout in subscription mode (`/sandbox/billing/{id}`). */
export const SandboxBillingCheckout = z.object({
  id: z.string(),
  business_name: z.string(),
  plan: PaidPlanSchema,
  amount_cents: z.number(),
  currency: z.string(),
  interval: z.enum(['month', 'year']),
  promotion: z
    .object({ code: z.string(), description: z.string(), first_payment_cents: z.number() })
    .nullable(),
  /** The trial carried over: the first payment is taken then. */
  trial_end: Timestamp.nullable(),
  status: z.enum(['open', 'complete']),
  cancel_url: z.string(),
});
export const SandboxBillingAnswer = z.object({ redirect_url: z.string() });

/** Sandbox mode's stand-in for Stripe's customer portal: what Stripe would do, as the events it would send. */
export const SANDBOX_PORTAL_ACTIONS = ['cancel', 'resume', 'fail_payment', 'pay', 'end'] as const;
export const SandboxPortalRequest = z.strictObject({ action: z.enum(SANDBOX_PORTAL_ACTIONS) });
