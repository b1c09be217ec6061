import { businesses } from '@switchboard/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signStripeEvent, verifyStripeEvent } from '../../integrations/stripe/payments.ts';
import { FakeStripe } from '../../test/fake-stripe.ts';
import {
  apiClient,
  createTestApp,
  DEMO_LOGINS,
  inbound,
  type Json,
  selectedLocation,
  type TestApp,
} from '../../test/helpers.ts';
import { fixtureBytes, fixtureJson } from '../channels/test-support.ts';

const FIXTURE_SECRET = 'whsec_fixture_secret_not_real_0000000000';
const signatures = fixtureJson<{ files: Record<string, { 'Stripe-Signature': string; timestamp: number }> }>(
  'stripe/_signatures.json',
).files;
const DAY_MS = 86_400_000;

async function businessOf(t: TestApp, token: string) {
  const me = (await apiClient(t)('GET', '/user/me', token)).body.body;
  const id = me.businesses.find((b: Json) => b.selected).id as string;
  const [row] = await t.database.db.select().from(businesses).where(eq(businesses.id, id));
  return row!;
}

describe('plans in the sandbox: Checkout, the portal and the status they lead to', () => {
  let t: TestApp;
  let owner: string;
  let staff: string;
  let enquiryId: string;
  let api: ReturnType<typeof apiClient>;
  beforeAll(async () => {
    t = await createTestApp({
      MESSAGE_LIMIT_TRIAL: '500',
      MESSAGE_LIMIT_MONTHLY: '2000',
      MESSAGE_LIMIT_ANNUAL: '3000',
    });
    api = apiClient(t);
    owner = await t.login(DEMO_LOGINS.owner);
    staff = await t.login(DEMO_LOGINS.staff1);
    const location = await selectedLocation(t, owner);
    enquiryId = (
      await inbound(t, owner, { location_id: location, from: { phone: '+61400555111' }, message: 'Hi' })
    ).enquiry_id;
  });
  afterAll(() => t.close());

  const reply = () => api('POST', `/enquiries/${enquiryId}/messages`, owner, { message: 'Thanks!' });
  const status = async () => (await api('GET', '/business/mybusiness/subscription', staff)).body.body;

  it('shows the trial and the plans on offer; only the owner may choose', async () => {
    const view = await status();
    expect(view).toMatchObject({ status: 'trial', plan: 'trial', billing: 'sandbox', message_limit: 500 });
    expect(view.trial_days_left).toBeGreaterThanOrEqual(13);
    expect(view.plans.map((p: Json) => [p.plan, p.amount_cents, p.message_limit])).toEqual([
      ['monthly', 4900, 2000],
      ['annual', 49000, 3000],
    ]);
    const refused = await api('PUT', '/business/mybusiness/change-subscription-plan', staff, {
      plan: 'monthly',
    });
    expect(refused.status).toBe(403);
    expect(
      (await api('PUT', '/business/mybusiness/change-subscription-plan', owner, { plan: 'weekly' })).status,
    ).toBe(400);
  });

  it('checks a promotion code and shows its discount before paying', async () => {
    const ok = await api('PUT', '/business/mybusiness/validate-promo-code', owner, {
      code: 'welcome20',
      plan: 'monthly',
    });
    expect(ok.status).toBe(200);
    expect(ok.body.body).toMatchObject({
      code: 'WELCOME20',
      description: '20% off for 3 months',
      price_cents: 4900,
      first_payment_cents: 3920,
    });
    const bad = await api('PUT', '/business/mybusiness/validate-promo-code', owner, {
      code: 'NOPE',
      plan: 'monthly',
    });
    expect(bad.status).toBe(422);
    expect(bad.body.message).toBe('The code NOPE is not valid, or has expired.');
    expect(
      (
        await api('PUT', '/business/mybusiness/validate-promo-code', staff, {
          code: 'WELCOME20',
          plan: 'monthly',
        })
      ).status,
    ).toBe(403);
    const withBad = await api('PUT', '/business/mybusiness/change-subscription-plan', owner, {
      plan: 'monthly',
      promotion_code: 'NOPE',
    });
    expect(withBad.status).toBe(422);
  });

  it('pays for a plan on the sandbox Checkout page: the webhooks make the business monthly, trial days kept', async () => {
    const go = await api('PUT', '/business/mybusiness/change-subscription-plan', owner, {
      plan: 'monthly',
      promotion_code: 'WELCOME20',
    });
    expect(go.status, JSON.stringify(go.body)).toBe(200);
    expect(go.body.body.kind).toBe('checkout');
    const url = new URL(go.body.body.url);
    const id = /^\/sandbox\/checkout\/(cs_sandbox_[\w.-]+)$/.exec(url.pathname)?.[1];
    expect(id).toBeDefined();
    const page = await api('GET', `/sandbox/billing/${id}${url.search}`);
    expect(page.body.body).toMatchObject({
      plan: 'monthly',
      status: 'open',
      business_name: 'Harbourside Dental',
    });
    expect(page.body.body.promotion).toMatchObject({ code: 'WELCOME20', first_payment_cents: 3920 });
    expect(page.body.body.trial_end).not.toBeNull();
    // A forged session id (another business, another plan) is refused.
    const forged = id!.replace(/\.[\w-]+$/, '.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
    expect((await api('GET', `/sandbox/billing/${forged}${url.search}`)).status).toBe(404);
    // Another promotion code on the same session is a forgery too.
    expect((await api('GET', `/sandbox/billing/${id}?promo=promo_sandbox_FIRSTMONTH`)).status).toBe(404);

    const paid = await api('POST', `/sandbox/billing/${id}${url.search}`);
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    const view = await status();
    expect(view).toMatchObject({
      status: 'monthly',
      plan: 'monthly',
      message_limit: 2000,
      can_manage_billing: true,
      // What the plan was bought with stays on the page after paying.
      promotion: { code: 'WELCOME20', description: '20% off for 3 months' },
      referral_code: expect.stringMatching(/^[a-z0-9-]+$/),
    });
    expect(view.renews_at).not.toBeNull();
    expect((await api('POST', `/sandbox/billing/${id}${url.search}`)).status).toBe(409);
    // A running subscription is changed in the portal, not bought again.
    const again = await api('PUT', '/business/mybusiness/change-subscription-plan', owner, {
      plan: 'annual',
    });
    expect(again.body.body.kind).toBe('portal');
  });

  it('a failed payment shows with its next attempt and still lets the business send; paying clears it', async () => {
    const failed = await api('POST', '/sandbox/billing-portal', owner, { action: 'fail_payment' });
    expect(failed.status, JSON.stringify(failed.body)).toBe(200);
    const view = await status();
    expect(view.status).toBe('payment_failed');
    const next = new Date(view.next_invoice_attempt).getTime();
    expect(next).toBeGreaterThan(Date.now() + 2 * DAY_MS);
    expect((await reply()).status).toBe(200);
    await api('POST', '/sandbox/billing-portal', owner, { action: 'pay' });
    expect((await status()).status).toBe('monthly');
  });

  it('a cancelled subscription runs to its end; an ended one stops sending but not reading', async () => {
    await api('POST', '/sandbox/billing-portal', owner, { action: 'cancel' });
    const cancelled = await status();
    expect(cancelled.status).toBe('monthly');
    expect(cancelled.ends_at).not.toBeNull();
    await api('POST', '/sandbox/billing-portal', owner, { action: 'end' });
    expect((await status()).status).toBe('monthly_subscription_expired');
    // An ended subscription's discount is not shown as running.
    expect((await status()).promotion).toBeNull();
    const refused = await reply();
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('subscription_inactive');
    expect(refused.body.message).toContain('monthly subscription has ended');
    expect((await api('GET', `/enquiries/${enquiryId}/messages`, owner)).status).toBe(200);
    const features = await api('GET', '/business/mybusiness/features', owner);
    expect(features.body.body.subscription_status).toBe('monthly_subscription_expired');
    // Buying again goes through Checkout.
    const back = await api('PUT', '/business/mybusiness/change-subscription-plan', owner, { plan: 'annual' });
    expect(back.body.body.kind).toBe('checkout');
    await api(
      'POST',
      new URL(back.body.body.url).pathname.replace('/sandbox/checkout/', '/sandbox/billing/'),
    );
    expect(await status()).toMatchObject({ status: 'annual', message_limit: 3000 });
    expect((await reply()).status).toBe(200);
  });

  it('an expired trial refuses sending and says what to do; the inbox still reads', async () => {
    const north = await t.login(DEMO_LOGINS.northsideOwner);
    const b = await businessOf(t, north);
    await t.database.db
      .update(businesses)
      .set({ plan: 'trial', trial_end_date: new Date(Date.now() - 3 * DAY_MS) })
      .where(eq(businesses.id, b.id));
    expect((await api('GET', '/business/mybusiness/subscription', north)).body.body.status).toBe(
      'trial_expired',
    );
    const location = await selectedLocation(t, north);
    const { enquiry_id } = await inbound(t, north, {
      location_id: location,
      from: { phone: '+61400555222' },
      message: 'Hello?',
    });
    const refused = await api('POST', `/enquiries/${enquiry_id}/messages`, north, { message: 'Hi' });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toContain('free trial has ended');
    const list = await api('GET', `/enquiries/${enquiry_id}/messages`, north);
    expect(list.body.body.items).toHaveLength(1);
  });

  it('keeps each business to its own: the portal acts on the signed-in business only', async () => {
    const north = await t.login(DEMO_LOGINS.northsideOwner);
    const res = await api('POST', '/sandbox/billing-portal', north, { action: 'end' });
    expect(res.status).toBe(409);
    expect((await status()).status).toBe('annual');
  });
});

describe('Stripe Billing against a fake Stripe API', () => {
  let stripe: FakeStripe;
  let t: TestApp;
  let owner: string;
  let api: ReturnType<typeof apiClient>;
  beforeAll(async () => {
    stripe = new FakeStripe();
    await stripe.start();
    stripe.prices = {
      price_monthly: { unit_amount: 5900, currency: 'aud', interval: 'month' },
      price_annual: { unit_amount: 59000, currency: 'aud', interval: 'year' },
    };
    stripe.promotionCodes = [
      {
        id: 'promo_123',
        code: 'SAVE10',
        active: true,
        coupon: {
          percent_off: null,
          amount_off: 1000,
          currency: 'aud',
          duration: 'once',
          duration_in_months: null,
          name: null,
          valid: true,
        },
      },
    ];
    t = await createTestApp({
      SANDBOX_MODE: 'false',
      STRIPE_SECRET_KEY: 'sk_test_fake',
      STRIPE_WEBHOOK_SECRET: 'whsec_connect_test',
      STRIPE_BILLING_WEBHOOK_SECRET: FIXTURE_SECRET,
      STRIPE_API_BASE: stripe.url,
      STRIPE_PRICE_MONTHLY: 'price_monthly',
      STRIPE_PRICE_ANNUAL: 'price_annual',
      PUBLIC_URL: 'https://switchboard.example.com',
    });
    api = apiClient(t);
    owner = await t.login(DEMO_LOGINS.owner);
  });
  afterAll(async () => {
    await t.close();
    await stripe.close();
  });

  it('sends the owner to Checkout in subscription mode: one customer, the price, the trial kept, codes allowed', async () => {
    const view = (await api('GET', '/business/mybusiness/subscription', owner)).body.body;
    expect(view.billing).toBe('stripe');
    expect(view.plans.map((p: Json) => [p.plan, p.amount_cents, p.currency])).toEqual([
      ['monthly', 5900, 'AUD'],
      ['annual', 59000, 'AUD'],
    ]);
    const go = await api('PUT', '/business/mybusiness/change-subscription-plan', owner, { plan: 'monthly' });
    expect(go.status, JSON.stringify(go.body)).toBe(200);
    expect(go.body.body.url).toMatch(/^https:\/\/checkout\.stripe\.test\//);
    const [customer] = stripe.callsTo('POST', '/v1/customers');
    expect(customer!.form.get('metadata[business_id]')).toBeTruthy();
    expect(customer!.headers['idempotency-key']).toMatch(/^customer:/);
    const session = stripe.callsTo('POST', '/v1/checkout/sessions').at(-1)!;
    expect(session.form.get('mode')).toBe('subscription');
    expect(session.form.get('customer')).toMatch(/^cus_fake/);
    expect(session.form.get('line_items[0][price]')).toBe('price_monthly');
    expect(session.form.get('allow_promotion_codes')).toBe('true');
    expect(Number(session.form.get('subscription_data[trial_end]'))).toBeGreaterThan(
      Date.now() / 1000 + 12 * 86400,
    );
    expect(session.form.get('subscription_data[metadata][plan]')).toBe('monthly');
    expect(session.form.get('success_url')).toBe(
      'https://switchboard.example.com/settings/subscription?checkout=done',
    );
  });

  it('checks a code against Stripe and applies it to Checkout', async () => {
    const check = await api('PUT', '/business/mybusiness/validate-promo-code', owner, {
      code: 'SAVE10',
      plan: 'monthly',
    });
    expect(check.status, JSON.stringify(check.body)).toBe(200);
    expect(check.body.body).toMatchObject({
      description: '$10.00 off your first payment',
      first_payment_cents: 4900,
    });
    expect(stripe.callsTo('GET', '/v1/promotion_codes').at(-1)!.form.get('code')).toBe('SAVE10');
    const go = await api('PUT', '/business/mybusiness/change-subscription-plan', owner, {
      plan: 'annual',
      promotion_code: 'SAVE10',
    });
    expect(go.status).toBe(200);
    const session = stripe.callsTo('POST', '/v1/checkout/sessions').at(-1)!;
    expect(session.form.get('discounts[0][promotion_code]')).toBe('promo_123');
    expect(session.form.get('allow_promotion_codes')).toBeNull();
    expect(stripe.callsTo('POST', '/v1/customers')).toHaveLength(1);
  });

  it('accepts the fixtures: a subscription Checkout for a tenant not here is acknowledged, invoice.paid clears a failed payment', async () => {
    const b = await businessOf(t, owner);
    const raw = fixtureBytes('stripe/invoice.paid.json');
    // The fixture's own signature, read at its own time.
    const { timestamp, 'Stripe-Signature': header } = signatures['invoice.paid.json']!;
    expect(verifyStripeEvent(raw, header, FIXTURE_SECRET, (timestamp + 1) * 1000).type).toBe('invoice.paid');
    // The same bytes, signed now with the Billing endpoint's secret (Stripe's tolerance is 300 s).
    const send = (bytes: Buffer, signature = signStripeEvent(bytes.toString(), FIXTURE_SECRET)) =>
      t.request({
        method: 'POST',
        url: '/webhooks/stripe',
        payload: bytes,
        headers: { 'content-type': 'application/json', 'stripe-signature': signature },
      });

    // Its tenant and customer are not here: acknowledged, nothing changed.
    const checkout = await send(fixtureBytes('stripe/checkout.session.completed.json'));
    expect(checkout.statusCode, checkout.body).toBe(200);
    const untouched = await businessOf(t, owner);
    expect(untouched.stripe_subscription_id).toBeNull();
    expect(untouched.plan).toBe('trial');

    await t.database.db
      .update(businesses)
      .set({
        stripe_customer_id: 'cus_FixtureCust0001',
        next_invoice_attempt: new Date(Date.now() + DAY_MS),
        plan: 'monthly',
      })
      .where(eq(businesses.id, b.id));
    expect((await api('GET', '/business/mybusiness/subscription', owner)).body.body.status).toBe(
      'payment_failed',
    );
    const paid = await send(raw);
    expect(paid.statusCode, paid.body).toBe(200);
    expect((await api('GET', '/business/mybusiness/subscription', owner)).body.body.status).toBe('monthly');
    expect((await send(raw)).json()).toMatchObject({ duplicate: true });
    // The fixture's own (old) signature is outside the tolerance now: refused.
    expect((await send(raw, header)).statusCode).toBe(400);
  });

  it('leaves out an event older than the last one applied: a late payment failure does not undo a payment', async () => {
    const b = await businessOf(t, owner);
    await t.database.db
      .update(businesses)
      .set({ stripe_customer_id: 'cus_OrderCust0001', next_invoice_attempt: null, plan: 'monthly' })
      .where(eq(businesses.id, b.id));
    const now = Math.floor(Date.now() / 1000);
    const event = (id: string, type: string, created: number, invoice: Json) =>
      Buffer.from(JSON.stringify({ id, object: 'event', type, created, data: { object: invoice } }));
    const send = (bytes: Buffer) =>
      t.request({
        method: 'POST',
        url: '/webhooks/stripe',
        payload: bytes,
        headers: {
          'content-type': 'application/json',
          'stripe-signature': signStripeEvent(bytes.toString(), FIXTURE_SECRET),
        },
      });
    const invoice = { id: 'in_order_1', object: 'invoice', customer: 'cus_OrderCust0001' };
    const status = async () =>
      (await api('GET', '/business/mybusiness/subscription', owner)).body.body.status;

    expect((await send(event('evt_order_paid', 'invoice.paid', now, invoice))).statusCode).toBe(200);
    expect(await status()).toBe('monthly');
    // A failure from a minute before the payment, delivered after it: acknowledged and left out.
    const late = event('evt_order_late', 'invoice.payment_failed', now - 60, {
      ...invoice,
      next_payment_attempt: now + 3 * 86400,
    });
    expect((await send(late)).statusCode).toBe(200);
    expect(await status()).toBe('monthly');
    expect((await businessOf(t, owner)).next_invoice_attempt).toBeNull();
    // A newer failure is applied.
    const newer = event('evt_order_new', 'invoice.payment_failed', now + 1, {
      ...invoice,
      next_payment_attempt: now + 3 * 86400,
    });
    expect((await send(newer)).statusCode).toBe(200);
    expect(await status()).toBe('payment_failed');
  });

  it('opens the customer portal for the card and cancelling', async () => {
    const res = await api('POST', '/business/mybusiness/billing-portal', owner);
    expect(res.status).toBe(200);
    expect(res.body.body.url).toMatch(/^https:\/\/billing\.stripe\.test\/p\/session\//);
    const call = stripe.callsTo('POST', '/v1/billing_portal/sessions').at(-1)!;
    expect(call.form.get('return_url')).toBe('https://switchboard.example.com/settings/subscription');
  });
});
