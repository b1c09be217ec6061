import { randomBytes } from 'node:crypto';
import { toStripeAmount } from '@switchboard/shared';
import Stripe from 'stripe';
import type { Config } from '../../config.ts';
import { deriveKey } from '../../lib/crypto.ts';
import { stripeClient } from './client.ts';

/** What settings show of a connected account. */
export type AccountState = { details_submitted: boolean; charges_enabled: boolean; payouts_enabled: boolean };

export type CheckoutInput = {
  /** The business's connected account: the charge is a direct charge on it. */
  account: string;
  invoice_id: string;
  business_id: string;
  /** ISO 4217; every amount here is in its minor units, converted to Stripe's amounts by the adapter. */
  currency: string;
  /** One line per invoice line (tax included) and the surcharge, or the balance: they add up to what is due. */
  lines: { name: string; amount_cents: number }[];
  application_fee_cents: number;
  success_url: string;
  cancel_url: string;
  customer_email: string | null;
  /** The same key for the same invoice version: a retried request makes no second session. */
  idempotency_key: string;
};

/** Invoice payments: the business's connected account, its onboarding, Checkout and refunds, and webhooks. */
export interface Payments {
  readonly mode: 'stripe' | 'sandbox';
  /** The secret webhooks are signed with (Stripe's endpoint secret, or the sandbox's own). */
  readonly webhookSecret: string;
  createAccount(input: { business_id: string; name: string; email: string | null }): Promise<string>;
  onboardingLink(account: string, urls: { return_url: string; refresh_url: string }): Promise<string>;
  account(account: string): Promise<AccountState>;
  checkout(input: CheckoutInput): Promise<{ id: string; url: string; expires_at: Date }>;
  /** Closes an open Checkout session so it cannot be paid; `not_open` when it was already complete or expired. */
  expireCheckout(account: string, session: string): Promise<'expired' | 'not_open'>;
  /** Refunds part of a payment, in its currency's minor units. */
  refund(input: {
    account: string;
    payment_intent: string;
    currency: string;
    amount_cents: number;
    idempotency_key: string;
  }): Promise<{ id: string }>;
}

/** Stripe's own rule for `Stripe-Signature` (HMAC-SHA256 of `t.body`, 300 s tolerance, replay-safe with ids). */
export function verifyStripeEvent(
  raw: Buffer | string,
  header: string | undefined,
  secret: string,
  receivedAtMs = Date.now(),
): Stripe.Event {
  return Stripe.webhooks.constructEvent(raw, header ?? '', secret, 300, undefined, receivedAtMs);
}

/** A `Stripe-Signature` header for a body, as Stripe makes it (the sandbox signs its events this way). */
export function signStripeEvent(payload: string, secret: string, timestamp = Math.floor(Date.now() / 1000)) {
  return Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp });
}

/**
 * An event as Stripe renders it (the fixtures' API version), for the sandbox to send through the real webhook:
 * from a connected account (invoices) or, with none, from the platform (the businesses' plans).
 */
export function sandboxStripeEvent(
  type: string,
  object: Record<string, unknown>,
  account: string | null = null,
) {
  return {
    id: `evt_sandbox_${randomBytes(12).toString('hex')}`,
    object: 'event',
    api_version: '2026-07-29.dahlia',
    created: Math.floor(Date.now() / 1000),
    ...(account ? { account } : {}),
    data: { object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  };
}

/** The real adapter: Stripe's API through `stripe-node`, at `STRIPE_API_BASE` (a fake server in tests). */
export function stripePayments(
  settings: Config['payments'] & { stripeSecretKey: string; webhookSecret: string },
) {
  const stripe = stripeClient(settings.stripeSecretKey, settings.apiBase);
  const payments: Payments = {
    mode: 'stripe',
    webhookSecret: settings.webhookSecret,
    async createAccount(input) {
      const account = await stripe.accounts.create(
        {
          type: 'standard',
          ...(input.email ? { email: input.email } : {}),
          business_profile: { name: input.name },
          metadata: { business_id: input.business_id },
        },
        // One connected account per business, however often the owner clicks.
        { idempotencyKey: `account:${input.business_id}` },
      );
      return account.id;
    },
    async onboardingLink(account, urls) {
      const link = await stripe.accountLinks.create({
        account,
        type: 'account_onboarding',
        return_url: urls.return_url,
        refresh_url: urls.refresh_url,
      });
      return link.url;
    },
    async account(account) {
      return accountState(await stripe.accounts.retrieve(account));
    },
    async checkout(input) {
      const session = await stripe.checkout.sessions.create(
        {
          mode: 'payment',
          client_reference_id: input.invoice_id,
          ...(input.customer_email ? { customer_email: input.customer_email } : {}),
          line_items: input.lines.map((line) => ({
            quantity: 1,
            price_data: {
              currency: input.currency.toLowerCase(),
              unit_amount: toStripeAmount(line.amount_cents, input.currency),
              product_data: { name: line.name.slice(0, 250) },
            },
          })),
          payment_intent_data: {
            ...(input.application_fee_cents > 0
              ? { application_fee_amount: toStripeAmount(input.application_fee_cents, input.currency) }
              : {}),
            metadata: { invoice_id: input.invoice_id, business_id: input.business_id },
          },
          metadata: { invoice_id: input.invoice_id, business_id: input.business_id },
          success_url: input.success_url,
          cancel_url: input.cancel_url,
        },
        { stripeAccount: input.account, idempotencyKey: input.idempotency_key },
      );
      if (!session.url) throw new Error('Stripe made a Checkout session without a URL');
      return { id: session.id, url: session.url, expires_at: new Date(session.expires_at * 1000) };
    },
    async expireCheckout(account, session) {
      try {
        await stripe.checkout.sessions.expire(session, {}, { stripeAccount: account });
        return 'expired';
      } catch (error) {
        // Stripe refuses a session that is no longer open (already expired, or complete).
        if (error instanceof Stripe.errors.StripeInvalidRequestError) return 'not_open';
        throw error;
      }
    },
    async refund(input) {
      const refund = await stripe.refunds.create(
        { payment_intent: input.payment_intent, amount: toStripeAmount(input.amount_cents, input.currency) },
        { stripeAccount: input.account, idempotencyKey: input.idempotency_key },
      );
      return { id: refund.id };
    },
  };
  return payments;
}

export function accountState(
  account: Pick<Stripe.Account, 'details_submitted' | 'charges_enabled' | 'payouts_enabled'>,
) {
  return {
    details_submitted: Boolean(account.details_submitted),
    charges_enabled: Boolean(account.charges_enabled),
    payouts_enabled: Boolean(account.payouts_enabled),
  };
}

/**
 * Sandbox payments (sandbox mode without a Stripe key): an account that is ready at once, and Checkout on this
 * server's sandbox payment page, which completes or declines and sends the same signed webhook Stripe would.
 */
export function sandboxPayments(config: Pick<Config, 'encryptionKey' | 'publicUrl'>): Payments {
  const id = (prefix: string) => `${prefix}_sandbox_${randomBytes(12).toString('hex')}`;
  return {
    mode: 'sandbox',
    webhookSecret: `whsec_${deriveKey(config.encryptionKey, 'sandbox-stripe-webhook').toString('hex')}`,
    async createAccount() {
      return id('acct');
    },
    async onboardingLink(_account, urls) {
      return urls.return_url;
    },
    async account() {
      return { details_submitted: true, charges_enabled: true, payouts_enabled: true };
    },
    async checkout() {
      const session = id('cs');
      return {
        id: session,
        url: `${config.publicUrl}/sandbox/checkout/${session}`,
        expires_at: new Date(Date.now() + 24 * 3_600_000),
      };
    },
    // The sandbox's page pays only the invoice's current session, so a replaced one is closed already.
    async expireCheckout() {
      return 'not_open';
    },
    async refund() {
      return { id: id('re') };
    },
  };
}

/** The payments this server takes: Stripe when it has a key, the sandbox in sandbox mode, else none. */
export function paymentsFor(config: Config): Payments | null {
  const { stripeSecretKey, webhookSecret } = config.payments;
  if (stripeSecretKey && webhookSecret)
    return stripePayments({ ...config.payments, stripeSecretKey, webhookSecret });
  return config.sandbox ? sandboxPayments(config) : null;
}
