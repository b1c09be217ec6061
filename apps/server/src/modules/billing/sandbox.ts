import { randomBytes } from 'node:crypto';
import { businesses } from '@switchboard/db';
import {
  answer,
  SandboxBillingAnswer,
  SandboxBillingCheckout,
  SandboxPortalRequest,
  SubscriptionView,
} from '@switchboard/shared';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../errors.ts';
import {
  firstPaymentCents,
  readSandboxSession,
  SANDBOX_PRICES,
  SANDBOX_PROMOTIONS,
} from '../../integrations/stripe/billing.ts';
import { sandboxStripeEvent, signStripeEvent } from '../../integrations/stripe/payments.ts';
import { requireOwner } from '../../plugins/auth.ts';
import { describePromotion, getSubscription, runningTrialEnd } from './service.ts';

const Params = z.strictObject({ id: z.string().max(100) });
const Query = z.strictObject({ promo: z.string().max(100).optional() });
const DAY_MS = 86_400_000;

/** Sends this server a signed event through `POST /webhooks/stripe`, exactly as Stripe would. */
async function deliver(app: FastifyInstance, event: object) {
  const payload = JSON.stringify(event);
  const secret = app.payments?.webhookSecret;
  if (!secret) throw new AppError('not_found', 'The sandbox takes no payments here.');
  const res = await app.inject({
    method: 'POST',
    url: '/webhooks/stripe',
    payload,
    headers: { 'content-type': 'application/json', 'stripe-signature': signStripeEvent(payload, secret) },
  });
  if (res.statusCode !== 200)
    throw new AppError('internal_error', `The sandbox's webhook was refused: ${res.body}`);
}

const sec = (d: Date | null) => (d ? Math.floor(d.getTime() / 1000) : null);

function subscriptionObject(
  b: typeof businesses.$inferSelect,
  plan: 'monthly' | 'annual',
  state: { status: string; periodEnd: Date; cancelAt?: Date | null; endedAt?: Date | null },
) {
  return {
    id: b.stripe_subscription_id ?? `sub_sandbox_${randomBytes(12).toString('hex')}`,
    object: 'subscription',
    customer: b.stripe_customer_id,
    status: state.status,
    cancel_at_period_end: Boolean(state.cancelAt),
    cancel_at: sec(state.cancelAt ?? null),
    ended_at: sec(state.endedAt ?? null),
    metadata: { business_id: b.id, plan },
    items: {
      object: 'list',
      data: [
        {
          id: `si_sandbox_${plan}`,
          object: 'subscription_item',
          current_period_end: sec(state.periodEnd),
          price: {
            id: `price_sandbox_${plan}`,
            object: 'price',
            recurring: { interval: plan === 'annual' ? 'year' : 'month' },
          },
        },
      ],
    },
  };
}

const periodEnd = (plan: 'monthly' | 'annual', from = new Date()) =>
  new Date(from.getTime() + (plan === 'annual' ? 365 : 30) * DAY_MS);

/**
 * Sandbox mode's stand-ins for Stripe Checkout (subscription mode) and the customer portal. Both end in the
 * signed events Stripe would send, through the real webhook: a sandbox subscription takes the real path.
 */
export const sandboxBillingRoutes: FastifyPluginAsyncZod = async (app) => {
  const inSandbox = () => {
    if (app.billing?.mode !== 'sandbox')
      throw new AppError('not_found', 'This page is only in sandbox mode.');
  };

  /** The sandbox Checkout page's session: its id is signed by the sandbox billing for one business and plan. */
  async function session(id: string, promotion: string | null) {
    inSandbox();
    const found = readSandboxSession(app.config, id, promotion);
    const [b] = found
      ? await app.db.select().from(businesses).where(eq(businesses.id, found.business_id))
      : [];
    if (!found || !b) throw new AppError('not_found', 'This payment page is not valid, or has expired.');
    const paid = b.plan === found.plan && Boolean(b.stripe_subscription_id) && !b.subscription_past_due;
    return { found, business: b, plan: found.plan, paid };
  }

  app.get(
    '/sandbox/billing/:id',
    { schema: { params: Params, querystring: Query, response: { 200: answer(SandboxBillingCheckout) } } },
    async (request) => {
      const { found, business, plan, paid } = await session(request.params.id, request.query.promo ?? null);
      const price = SANDBOX_PRICES.find((p) => p.plan === plan)!;
      const code = found.promotion ? found.promotion.replace(/^promo_sandbox_/, '') : null;
      const promo = code ? SANDBOX_PROMOTIONS[code] : undefined;
      const first = firstPaymentCents(price.amount_cents, promo);
      const trialEnd = runningTrialEnd(business);
      return {
        body: {
          id: request.params.id,
          business_name: business.name,
          plan,
          amount_cents: price.amount_cents,
          currency: price.currency,
          interval: price.interval,
          promotion:
            promo && code ? { code, description: promo.name ?? code, first_payment_cents: first } : null,
          trial_end: trialEnd?.toISOString() ?? null,
          status: paid ? ('complete' as const) : ('open' as const),
          cancel_url: `${app.config.publicUrl}/settings/subscription?checkout=cancelled`,
        },
      };
    },
  );

  app.post(
    '/sandbox/billing/:id',
    { schema: { params: Params, querystring: Query, response: { 200: answer(SandboxBillingAnswer) } } },
    async (request) => {
      const { found, business, plan, paid } = await session(request.params.id, request.query.promo ?? null);
      if (paid) throw new AppError('conflict', 'This plan has already been paid for.');
      const code = found.promotion ? found.promotion.replace(/^promo_sandbox_/, '') : null;
      const promo = code ? SANDBOX_PROMOTIONS[code] : undefined;
      const trialEnd = runningTrialEnd(business);
      const sub = subscriptionObject(business, plan, {
        status: trialEnd ? 'trialing' : 'active',
        periodEnd: trialEnd ?? periodEnd(plan),
      });
      await deliver(
        app,
        sandboxStripeEvent('checkout.session.completed', {
          id: request.params.id,
          object: 'checkout.session',
          mode: 'subscription',
          status: 'complete',
          payment_status: trialEnd ? 'no_payment_required' : 'paid',
          customer: business.stripe_customer_id,
          client_reference_id: business.id,
          subscription: sub.id,
          metadata: {
            business_id: business.id,
            plan,
            ...(promo && code
              ? { promotion_code: code, promotion_description: describePromotion({ ...promo, code }) }
              : {}),
          },
        }),
      );
      await deliver(app, sandboxStripeEvent('customer.subscription.created', sub));
      if (!trialEnd)
        await deliver(
          app,
          sandboxStripeEvent('invoice.paid', {
            id: `in_sandbox_${randomBytes(8).toString('hex')}`,
            object: 'invoice',
            customer: business.stripe_customer_id,
            status: 'paid',
          }),
        );
      return { body: { redirect_url: `${app.config.publicUrl}/settings/subscription?checkout=done` } };
    },
  );

  app.register(async (scope) => {
    const authed = scope.withTypeProvider<ZodTypeProvider>();
    authed.addHook('onRequest', authed.authenticate);

    authed.get(
      '/sandbox/billing-portal',
      { schema: { response: { 200: answer(SubscriptionView) } } },
      async (request) => {
        inSandbox();
        requireOwner(request.actor, 'manage the subscription');
        return { body: await getSubscription(request.ctx) };
      },
    );

    // What Stripe's portal (and its retries) would do to the subscription, as the events it would send.
    authed.post(
      '/sandbox/billing-portal',
      { schema: { body: SandboxPortalRequest, response: { 200: answer(SubscriptionView) } } },
      async (request) => {
        inSandbox();
        const a = requireOwner(request.actor, 'manage the subscription');
        const [b] = await app.db.select().from(businesses).where(eq(businesses.id, a.business_id));
        if (!b?.stripe_subscription_id || (b.plan !== 'monthly' && b.plan !== 'annual')) {
          throw new AppError('conflict', 'There is no subscription to manage yet: choose a plan first.');
        }
        const plan = b.plan;
        const renews = b.subscription_renews_at ?? periodEnd(plan);
        const invoice = (extra: object) => ({
          id: `in_sandbox_${randomBytes(8).toString('hex')}`,
          object: 'invoice',
          customer: b.stripe_customer_id,
          ...extra,
        });
        switch (request.body.action) {
          case 'cancel':
            await deliver(
              app,
              sandboxStripeEvent(
                'customer.subscription.updated',
                subscriptionObject(b, plan, { status: 'active', periodEnd: renews, cancelAt: renews }),
              ),
            );
            break;
          case 'resume':
            await deliver(
              app,
              sandboxStripeEvent(
                'customer.subscription.updated',
                subscriptionObject(b, plan, { status: 'active', periodEnd: renews }),
              ),
            );
            break;
          case 'fail_payment':
            await deliver(
              app,
              sandboxStripeEvent(
                'invoice.payment_failed',
                invoice({
                  status: 'open',
                  attempt_count: 1,
                  next_payment_attempt: sec(new Date(Date.now() + 3 * DAY_MS)),
                }),
              ),
            );
            await deliver(
              app,
              sandboxStripeEvent(
                'customer.subscription.updated',
                subscriptionObject(b, plan, { status: 'past_due', periodEnd: renews }),
              ),
            );
            break;
          case 'pay':
            await deliver(app, sandboxStripeEvent('invoice.paid', invoice({ status: 'paid' })));
            await deliver(
              app,
              sandboxStripeEvent(
                'customer.subscription.updated',
                subscriptionObject(b, plan, { status: 'active', periodEnd: periodEnd(plan) }),
              ),
            );
            break;
          case 'end':
            await deliver(
              app,
              sandboxStripeEvent(
                'customer.subscription.deleted',
                subscriptionObject(b, plan, { status: 'canceled', periodEnd: renews, endedAt: new Date() }),
              ),
            );
            break;
        }
        return { body: await getSubscription(request.ctx) };
      },
    );
  });
};
