import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type Stripe from 'stripe';
import type { Config } from '../../config.ts';
import { deriveKey } from '../../lib/crypto.ts';
import { stripeClient } from './client.ts';

export type PaidPlan = 'monthly' | 'annual';

/** A plan's price as the customer pays it. */
export type PlanPrice = {
  plan: PaidPlan;
  amount_cents: number;
  currency: string;
  interval: 'month' | 'year';
};

/** A promotion code's discount, as Stripe holds it. */
export type Promotion = {
  id: string;
  code: string;
  name: string | null;
  percent_off: number | null;
  amount_off_cents: number | null;
  currency: string | null;
  duration: 'once' | 'repeating' | 'forever';
  duration_in_months: number | null;
};

export type SubscribeInput = {
  business_id: string;
  customer: string;
  plan: PaidPlan;
  /** The trial's end, when the business is still on its trial: it is not charged before then. */
  trial_end: Date | null;
  /** A checked promotion code's id; without one Checkout lets the customer type a code. */
  promotion: string | null;
  /** That code as the owner typed it and its discount in words, kept with the subscription to show later. */
  promotion_label?: { code: string; description: string } | null;
  success_url: string;
  cancel_url: string;
  idempotency_key: string;
};

/** The Switchboard subscription of each business: Stripe Billing on the platform account, or the sandbox. */
export interface Billing {
  readonly mode: 'stripe' | 'sandbox';
  prices(): Promise<PlanPrice[]>;
  customer(input: { business_id: string; name: string; email: string | null }): Promise<string>;
  checkout(input: SubscribeInput): Promise<{ id: string; url: string }>;
  portal(input: { customer: string; return_url: string }): Promise<string>;
  promotion(code: string): Promise<Promotion | null>;
}

function toPromotion(code: Stripe.PromotionCode): Promotion | null {
  const coupon = code.promotion?.coupon;
  if (!coupon || typeof coupon === 'string' || !coupon.valid) return null;
  return {
    id: code.id,
    code: code.code,
    name: coupon.name ?? null,
    percent_off: coupon.percent_off ?? null,
    amount_off_cents: coupon.amount_off ?? null,
    currency: coupon.currency?.toUpperCase() ?? null,
    duration: (['once', 'repeating'] as const).find((d) => d === coupon.duration) ?? 'forever',
    duration_in_months: coupon.duration_in_months ?? null,
  };
}

/** A plan's first payment with a promotion's discount: a percentage off, or an amount off down to nothing. */
export function firstPaymentCents(
  amountCents: number,
  promotion: Pick<Promotion, 'percent_off' | 'amount_off_cents'> | null | undefined,
): number {
  if (!promotion) return amountCents;
  if (promotion.percent_off !== null) return Math.round((amountCents * (100 - promotion.percent_off)) / 100);
  return Math.max(0, amountCents - (promotion.amount_off_cents ?? 0));
}

/** Stripe wants a trial to end at least two days ahead; a trial ending sooner is charged from now. */
const MIN_TRIAL_MS = 2 * 86_400_000 + 3_600_000;

export function stripeBilling(settings: {
  secretKey: string;
  apiBase: string;
  prices: { monthly?: string; annual?: string };
}): Billing {
  const stripe = stripeClient(settings.secretKey, settings.apiBase);
  const priceOf = (plan: PaidPlan) => {
    const id = settings.prices[plan];
    if (!id) throw new Error(`No Stripe price is configured for the ${plan} plan.`);
    return id;
  };
  let cached: { at: number; prices: PlanPrice[] } | null = null;
  return {
    mode: 'stripe',
    async prices() {
      if (cached && Date.now() - cached.at < 3_600_000) return cached.prices;
      const found: PlanPrice[] = [];
      for (const plan of ['monthly', 'annual'] as const) {
        if (!settings.prices[plan]) continue;
        const price = await stripe.prices.retrieve(priceOf(plan));
        found.push({
          plan,
          amount_cents: price.unit_amount ?? 0,
          currency: price.currency.toUpperCase(),
          interval: price.recurring?.interval === 'year' ? 'year' : 'month',
        });
      }
      cached = { at: Date.now(), prices: found };
      return found;
    },
    async customer(input) {
      const customer = await stripe.customers.create(
        {
          name: input.name,
          ...(input.email ? { email: input.email } : {}),
          metadata: { business_id: input.business_id },
        },
        // One Stripe customer per business, however often the owner clicks.
        { idempotencyKey: `customer:${input.business_id}` },
      );
      return customer.id;
    },
    async checkout(input) {
      const metadata = {
        business_id: input.business_id,
        plan: input.plan,
        ...(input.promotion_label
          ? {
              promotion_code: input.promotion_label.code,
              promotion_description: input.promotion_label.description.slice(0, 500),
            }
          : {}),
      };
      const trial =
        input.trial_end && input.trial_end.getTime() - Date.now() > MIN_TRIAL_MS
          ? { trial_end: Math.floor(input.trial_end.getTime() / 1000) }
          : {};
      const session = await stripe.checkout.sessions.create(
        {
          mode: 'subscription',
          customer: input.customer,
          client_reference_id: input.business_id,
          line_items: [{ price: priceOf(input.plan), quantity: 1 }],
          subscription_data: { ...trial, metadata },
          // Stripe takes either a code chosen here or a box for one on its page, not both.
          ...(input.promotion
            ? { discounts: [{ promotion_code: input.promotion }] }
            : { allow_promotion_codes: true }),
          metadata,
          success_url: input.success_url,
          cancel_url: input.cancel_url,
        },
        { idempotencyKey: input.idempotency_key },
      );
      if (!session.url) throw new Error('Stripe made a Checkout session without a URL');
      return { id: session.id, url: session.url };
    },
    async portal(input) {
      const session = await stripe.billingPortal.sessions.create({
        customer: input.customer,
        return_url: input.return_url,
      });
      return session.url;
    },
    async promotion(code) {
      const list = await stripe.promotionCodes.list({
        code,
        active: true,
        limit: 1,
        expand: ['data.promotion.coupon'],
      });
      const found = list.data[0];
      if (!found || (found.expires_at && found.expires_at * 1000 < Date.now())) return null;
      if (found.max_redemptions !== null && found.times_redeemed >= found.max_redemptions) return null;
      return toPromotion(found);
    },
  };
}

/** The sandbox's plans and codes: shown as sandbox prices, paid on this server's sandbox billing page. */
export const SANDBOX_PRICES: PlanPrice[] = [
  { plan: 'monthly', amount_cents: 4900, currency: 'AUD', interval: 'month' },
  { plan: 'annual', amount_cents: 49000, currency: 'AUD', interval: 'year' },
];
export const SANDBOX_PROMOTIONS: Record<string, Omit<Promotion, 'id' | 'code'>> = {
  WELCOME20: {
    name: '20% off for 3 months',
    percent_off: 20,
    amount_off_cents: null,
    currency: null,
    duration: 'repeating',
    duration_in_months: 3,
  },
  FIRSTMONTH: {
    name: 'A$49 off once',
    percent_off: null,
    amount_off_cents: 4900,
    currency: 'AUD',
    duration: 'once',
    duration_in_months: null,
  },
};

export function sandboxBilling(config: Pick<Config, 'encryptionKey' | 'publicUrl'>): Billing & {
  webhookSecret: string;
} {
  const id = (prefix: string) => `${prefix}_sandbox_${randomBytes(12).toString('hex')}`;
  return {
    mode: 'sandbox',
    webhookSecret: `whsec_${deriveKey(config.encryptionKey, 'sandbox-stripe-webhook').toString('hex')}`,
    async prices() {
      return SANDBOX_PRICES;
    },
    async customer() {
      return id('cus');
    },
    async checkout(input) {
      return sandboxSessionUrl(config, {
        business_id: input.business_id,
        plan: input.plan,
        promotion: input.promotion,
        exp: Date.now() + 86_400_000,
      });
    },
    async portal() {
      return `${config.publicUrl}/settings/subscription/sandbox-portal`;
    },
    async promotion(code) {
      const found = SANDBOX_PROMOTIONS[code.toUpperCase()];
      return found ? { id: `promo_sandbox_${code.toUpperCase()}`, code: code.toUpperCase(), ...found } : null;
    },
  };
}

export type SandboxSession = { business_id: string; plan: PaidPlan; promotion: string | null; exp: number };

const sessionSig = (config: Pick<Config, 'encryptionKey'>, body: string) =>
  createHmac('sha256', deriveKey(config.encryptionKey, 'sandbox-billing-session'))
    .update(body)
    .digest('base64url')
    .slice(0, 22);

const signedPart = (s: Pick<SandboxSession, 'business_id' | 'plan' | 'exp'>) =>
  `${s.business_id.replaceAll('-', '')}${s.plan === 'annual' ? 'a' : 'm'}${s.exp.toString(36)}`;

/**
 * A sandbox Checkout session's id carries what it is for (business, plan, expiry; the promotion code rides in the
 * URL's query), signed, as Stripe's own session would hold it. Short enough for a path segment.
 */
function sandboxSessionUrl(config: Pick<Config, 'encryptionKey' | 'publicUrl'>, session: SandboxSession) {
  const body = signedPart(session);
  const id = `cs_sandbox_${body}.${sessionSig(config, `${body}:${session.promotion ?? ''}`)}`;
  const query = session.promotion ? `?promo=${encodeURIComponent(session.promotion)}` : '';
  // The web app's sandbox payment page shows it (the same page as an invoice's sandbox Checkout).
  return { id, url: `${config.publicUrl}/sandbox/checkout/${id}${query}` };
}

/** The session a sandbox Checkout id (and its promotion code) stands for; null when forged, malformed or expired. */
export function readSandboxSession(
  config: Pick<Config, 'encryptionKey'>,
  id: string,
  promotion: string | null,
): SandboxSession | null {
  const m = /^cs_sandbox_([0-9a-f]{32})([am])([0-9a-z]{1,12})\.([\w-]{22})$/.exec(id);
  if (!m) return null;
  const body = `${m[1]}${m[2]}${m[3]}`;
  const expected = Buffer.from(sessionSig(config, `${body}:${promotion ?? ''}`));
  const given = Buffer.from(m[4]!);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  const exp = Number.parseInt(m[3]!, 36);
  if (!(exp > Date.now())) return null;
  const hex = m[1]!;
  const business_id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  return { business_id, plan: m[2] === 'a' ? 'annual' : 'monthly', promotion, exp };
}

/** The billing this server uses: Stripe with a key and plan prices, the sandbox in sandbox mode, else none. */
export function billingFor(config: Config): Billing | null {
  const { stripeSecretKey, apiBase } = config.payments;
  const { stripePrice } = config.plans;
  if (stripeSecretKey && (stripePrice.monthly || stripePrice.annual)) {
    return stripeBilling({ secretKey: stripeSecretKey, apiBase, prices: stripePrice });
  }
  return config.sandbox ? sandboxBilling(config) : null;
}
