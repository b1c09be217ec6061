import { businesses } from '@switchboard/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signStripeEvent, verifyStripeEvent } from '../../integrations/stripe/payments.ts';
import { FakeStripe } from '../../test/fake-stripe.ts';
import { createTestApp, DEMO_LOGINS, inbound, selectedLocation, type TestApp } from '../../test/helpers.ts';
import { fixtureBytes, fixtureJson } from '../channels/test-support.ts';

// biome-ignore lint/suspicious/noExplicitAny: tests read whatever the API answered.
type Json = Record<string, any>;
const SECRET = 'whsec_fixture_secret_not_real_0000000000';
const signatures = fixtureJson<{ files: Record<string, { 'Stripe-Signature': string; timestamp: number }> }>(
  'stripe/_signatures.json',
).files;

describe('Stripe webhook signatures (fixtures)', () => {
  for (const file of Object.keys(signatures)) {
    const { 'Stripe-Signature': header, timestamp } = signatures[file]!;
    const raw = fixtureBytes(`stripe/${file}`);

    it(`${file}: verifies over the exact bytes, inside the 300 s tolerance`, () => {
      const event = verifyStripeEvent(raw, header, SECRET, (timestamp + 1) * 1000);
      expect(event.id).toBe(JSON.parse(raw.toString()).id);
      expect(verifyStripeEvent(raw, header, SECRET, (timestamp + 300) * 1000).id).toBe(event.id);
    });

    it(`${file}: refuses a stale timestamp, other bytes, another secret or no header`, () => {
      expect(() => verifyStripeEvent(raw, header, SECRET, (timestamp + 301) * 1000)).toThrow(
        'Timestamp outside the tolerance zone',
      );
      const reserialised = JSON.stringify(JSON.parse(raw.toString()));
      expect(() => verifyStripeEvent(reserialised, header, SECRET, timestamp * 1000)).toThrow(
        'No signatures found matching the expected signature for payload',
      );
      expect(() => verifyStripeEvent(raw, header, 'whsec_another', timestamp * 1000)).toThrow(
        /No signatures found/,
      );
      expect(() => verifyStripeEvent(raw, undefined, SECRET, timestamp * 1000)).toThrow();
    });
  }
});

describe('Stripe Connect against a fake Stripe API', () => {
  let stripe: FakeStripe;
  let t: TestApp;
  let owner: string;
  let staff: string;
  let enquiryId: string;
  const api = async (method: string, url: string, token: string, payload?: unknown) => {
    const res = await t.request({
      method: method as 'GET',
      url: `/api/v1${url}`,
      token,
      payload: payload as Json,
    });
    return { status: res.statusCode, body: res.json() as Json };
  };
  const webhook = (payload: string, header: string) =>
    t.request({
      method: 'POST',
      url: '/webhooks/stripe',
      payload,
      headers: { 'content-type': 'application/json', 'stripe-signature': header },
    });
  const event = (
    type: string,
    account: string | null,
    object: Json,
    id = `evt_${Math.random().toString(36).slice(2)}`,
  ) =>
    JSON.stringify({
      id,
      object: 'event',
      api_version: '2026-07-29.dahlia',
      created: 1,
      account,
      data: { object },
      type,
    });

  beforeAll(async () => {
    stripe = new FakeStripe();
    await stripe.start();
    t = await createTestApp({
      STRIPE_SECRET_KEY: 'sk_test_fake',
      STRIPE_WEBHOOK_SECRET: SECRET,
      STRIPE_API_BASE: stripe.url,
      STRIPE_APPLICATION_FEE_BPS: '100',
    });
    owner = await t.login(DEMO_LOGINS.owner);
    staff = await t.login(DEMO_LOGINS.staff1);
    const loc = await selectedLocation(t, owner);
    ({ enquiry_id: enquiryId } = await inbound(t, owner, {
      location_id: loc,
      from: { phone: '+61491570333', name: 'Sam Citizen' },
      message: 'Invoice please',
    }));
  });
  afterAll(async () => {
    await t.close();
    await stripe.close();
  });

  it('makes one connected account per business and links its onboarding back to settings', async () => {
    const first = await api('GET', '/business/mybusiness/stripe-connect-link', owner);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const second = await api('GET', '/business/mybusiness/stripe-connect-link', owner);
    const made = stripe.callsTo('POST', '/v1/accounts');
    expect(made).toHaveLength(1);
    expect(made[0]!.form.get('type')).toBe('standard');
    expect(made[0]!.form.get('business_profile[name]')).toBe('Harbourside Dental');
    expect(made[0]!.headers.authorization).toBe('Bearer sk_test_fake');
    expect(made[0]!.headers['idempotency-key']).toMatch(/^account:/);
    const links = stripe.callsTo('POST', '/v1/account_links');
    expect(links).toHaveLength(2);
    expect(links[0]!.form.get('type')).toBe('account_onboarding');
    expect(links[0]!.form.get('return_url')).toBe(`${t.config.publicUrl}/settings/payments?stripe=return`);
    expect(first.body.body.url).toBe(`https://connect.stripe.test/setup/${links[0]!.form.get('account')}`);
    expect(second.body.body.url).toBe(first.body.body.url);
    // Settings read the account's state from Stripe.
    const account = (await api('GET', '/business/mybusiness/stripe-account', owner)).body.body;
    expect(account).toEqual({
      mode: 'stripe',
      connected: true,
      details_submitted: true,
      charges_enabled: true,
      payouts_enabled: false,
    });
  });

  it('keeps the account state Stripe sends in account.updated, and ignores accounts it does not know', async () => {
    const acct = stripe.callsTo('POST', '/v1/account_links')[0]!.form.get('account')!;
    const now = Math.floor(Date.now() / 1000);
    const body = event('account.updated', acct, {
      id: acct,
      object: 'account',
      details_submitted: true,
      charges_enabled: false,
      payouts_enabled: true,
    });
    const res = await webhook(body, signStripeEvent(body, SECRET, now));
    expect(res.statusCode, res.body).toBe(200);
    const [row] = await t.app.db
      .select({ c: businesses.stripe_charges_enabled, p: businesses.stripe_payouts_enabled })
      .from(businesses)
      .where(eq(businesses.stripe_account_id, acct));
    expect(row).toEqual({ c: false, p: true });
    const unknown = event('account.updated', 'acct_nobody', { id: 'acct_nobody', object: 'account' });
    expect((await webhook(unknown, signStripeEvent(unknown, SECRET, now))).statusCode).toBe(200);
    stripe.account = { details_submitted: true, charges_enabled: true, payouts_enabled: true };
    await api('GET', '/business/mybusiness/stripe-account', owner);
  });

  it('refuses events whose signature is wrong or stale, and handles a redelivered event once', async () => {
    const fixture = fixtureBytes('stripe/checkout.session.completed.json').toString();
    const stale = await webhook(fixture, signatures['checkout.session.completed.json']!['Stripe-Signature']);
    expect(stale.statusCode).toBe(400);
    expect(stale.json().message).toMatch(/Timestamp outside the tolerance zone/);
    const forged = await webhook(fixture, signStripeEvent(fixture, 'whsec_forged'));
    expect(forged.statusCode).toBe(400);
    // The fixture itself, freshly signed: a platform subscription event, no invoice here; acknowledged.
    const fresh = await webhook(fixture, signStripeEvent(fixture, SECRET));
    expect(fresh.json()).toEqual({ received: true, duplicate: false });
    const again = await webhook(fixture, signStripeEvent(fixture, SECRET));
    expect(again.json()).toEqual({ received: true, duplicate: true });
  });

  it('opens Checkout as a direct charge on the connected account, reused while it is open, and refunds there', async () => {
    const acct = stripe.callsTo('POST', '/v1/account_links')[0]!.form.get('account')!;
    const inv = (
      await api('POST', '/business/customer-invoices', staff, {
        enquiry_id: enquiryId,
        items: [
          { description: 'Check-up', quantity: 1, unit_price_cents: 12000, tax_rate: 10 },
          { description: 'X-ray', quantity: 2, unit_price_cents: 4500, tax_rate: 0 },
        ],
      })
    ).body.body;
    await api('POST', `/business/customer-invoices/${inv.id}/send`, staff, {});
    const secret = inv.pay_url.split('/pay/')[1];
    const first = await t.request({
      method: 'POST',
      url: `/api/v1/business/invoices/secret/${secret}/checkout`,
    });
    const second = await t.request({
      method: 'POST',
      url: `/api/v1/business/invoices/secret/${secret}/checkout`,
    });
    expect(first.statusCode, first.body).toBe(200);
    expect(second.json().body.url).toBe(first.json().body.url);
    // The second click reuses the open session: Stripe is asked once.
    const sessions = stripe.callsTo('POST', '/v1/checkout/sessions');
    expect(sessions).toHaveLength(1);
    const s = sessions[0]!;
    expect(s.headers['stripe-account']).toBe(acct);
    expect(s.headers['idempotency-key']).toBe(`checkout:${inv.id}:v1:22200:first`);
    expect(s.form.get('mode')).toBe('payment');
    expect(s.form.get('line_items[0][price_data][unit_amount]')).toBe('13200');
    expect(s.form.get('line_items[0][price_data][currency]')).toBe('aud');
    expect(s.form.get('line_items[1][price_data][product_data][name]')).toBe('X-ray × 2');
    expect(s.form.get('line_items[1][price_data][unit_amount]')).toBe('9000');
    expect(s.form.get('payment_intent_data[application_fee_amount]')).toBe('222');
    expect(s.form.get('metadata[invoice_id]')).toBe(inv.id);
    expect(s.form.get('success_url')).toBe(`${inv.pay_url}?paid=1`);

    // Stripe says it was paid (for the connected account); another account cannot say so.
    const sessionId = first.json().body.url.split('/pay/')[1];
    const spoof = event('checkout.session.completed', 'acct_someone_else', {
      id: sessionId,
      object: 'checkout.session',
      mode: 'payment',
      payment_status: 'paid',
      amount_total: 22200,
      currency: 'aud',
      payment_intent: 'pi_spoof',
      metadata: { invoice_id: inv.id },
    });
    expect((await webhook(spoof, signStripeEvent(spoof, SECRET))).statusCode).toBe(200);
    expect((await api('GET', `/business/customer-invoices/${inv.id}`, staff)).body.body.status).toBe('sent');
    const paid = event('checkout.session.completed', acct, {
      id: sessionId,
      object: 'checkout.session',
      mode: 'payment',
      payment_status: 'paid',
      amount_total: 22200,
      currency: 'aud',
      payment_intent: 'pi_real1',
      metadata: { invoice_id: inv.id },
    });
    expect((await webhook(paid, signStripeEvent(paid, SECRET))).statusCode).toBe(200);
    const succeeded = event('payment_intent.succeeded', acct, {
      id: 'pi_real1',
      object: 'payment_intent',
      amount_received: 22200,
      currency: 'aud',
      metadata: { invoice_id: inv.id },
    });
    expect((await webhook(succeeded, signStripeEvent(succeeded, SECRET))).statusCode).toBe(200);
    expect((await api('GET', `/business/customer-invoices/${inv.id}`, staff)).body.body).toMatchObject({
      status: 'paid',
      amount_paid_cents: 22200,
    });
    const notes = (await api('GET', `/enquiries/${enquiryId}/notes`, staff)).body.body.items as Json[];
    expect(notes.filter((n) => n.kind === 'event')).toHaveLength(1);

    // A refund goes to the connected account, with its own idempotency key; the charge.refunded that follows changes nothing more.
    const refund = await api('POST', `/business/customer-invoices/${inv.id}/refund`, owner, {
      amount_cents: 2200,
    });
    expect(refund.body.body).toMatchObject({ status: 'partially_refunded', amount_refunded_cents: 2200 });
    const r = stripe.callsTo('POST', '/v1/refunds')[0]!;
    expect(r.headers['stripe-account']).toBe(acct);
    expect(r.form.get('payment_intent')).toBe('pi_real1');
    expect(r.form.get('amount')).toBe('2200');
    expect(r.headers['idempotency-key']).toBe('refund:pi_real1:0:2200');
    const refunded = event('charge.refunded', acct, {
      id: 'ch_1',
      object: 'charge',
      payment_intent: 'pi_real1',
      amount_refunded: 22200,
    });
    expect((await webhook(refunded, signStripeEvent(refunded, SECRET))).statusCode).toBe(200);
    expect((await api('GET', `/business/customer-invoices/${inv.id}`, staff)).body.body).toMatchObject({
      status: 'refunded',
      amount_refunded_cents: 22200,
    });
  });

  it('says what Stripe said when a call fails', async () => {
    const inv = (
      await api('POST', '/business/customer-invoices', staff, {
        enquiry_id: enquiryId,
        items: [{ description: 'Clean', quantity: 1, unit_price_cents: 9000, tax_rate: 10 }],
      })
    ).body.body;
    await api('POST', `/business/customer-invoices/${inv.id}/send`, staff, {});
    stripe.failNext = { status: 400, message: 'Your account cannot currently make live charges.' };
    const res = await t.request({
      method: 'POST',
      url: `/api/v1/business/invoices/secret/${inv.pay_url.split('/pay/')[1]}/checkout`,
    });
    expect(res.statusCode).toBe(503);
    expect(res.json().message).toBe(
      'Stripe did not start the payment: Your account cannot currently make live charges.',
    );
  });
});
