import { enquiries } from '@switchboard/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signStripeEvent } from '../../integrations/stripe/payments.ts';
import { reviewAfterPayment } from '../../jobs/definitions/reviews.ts';
import { FakeStripe } from '../../test/fake-stripe.ts';
import {
  apiClient,
  createTestApp,
  DEMO_LOGINS,
  eventually,
  inbound,
  type Json,
  selectedLocation,
  type TestApp,
} from '../../test/helpers.ts';

const SECRET = 'whsec_fixture_secret_not_real_0000000000';

/**
 * What a customer is charged and what the owner sees, against a fake Stripe: payments compared with what the
 * invoice owes now, an old Checkout page closed when the invoice changes, currencies in their own minor units.
 */
describe('invoice money against a fake Stripe', () => {
  let stripe: FakeStripe;
  let t: TestApp;
  let api: ReturnType<typeof apiClient>;
  let owner: string;
  let staff: string;
  let account: string;
  let loc: string;
  let ip = 0;

  const item = (unit_price_cents: number, quantity = 1) => ({
    description: 'Work',
    quantity,
    unit_price_cents,
    tax_rate: 0,
  });
  /** A sent invoice in a conversation of its own (closed when paid), and its pay link's secret. */
  const sentInvoice = async (items: Json[], currency = 'AUD') => {
    const { enquiry_id } = await inbound(t, owner, {
      location_id: loc,
      from: { phone: `+6149157${String(1000 + ++ip).padStart(4, '0')}`, name: `Payer ${ip}` },
      message: 'Invoice please',
    });
    const made = await api('POST', '/business/customer-invoices', staff, { enquiry_id, items, currency });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const sent = await api('POST', `/business/customer-invoices/${made.body.body.id}/send`, staff, {
      close_on_paid: true,
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    return { inv: sent.body.body as Json, secret: made.body.body.pay_url.split('/pay/')[1] as string };
  };
  /** The customer's Pay button, from a client address of its own unless one is given. */
  const checkout = (secret: string, from = `198.51.100.${++ip % 250}`) =>
    t.request({
      method: 'POST',
      url: `/api/v1/business/invoices/secret/${secret}/checkout`,
      remoteAddress: from,
    });
  const sessionOf = (res: { json(): Json }) => (res.json().body.url as string).split('/pay/')[1]!;
  const deliver = async (body: string) => {
    const res = await t.request({
      method: 'POST',
      url: '/webhooks/stripe',
      payload: body,
      headers: { 'content-type': 'application/json', 'stripe-signature': signStripeEvent(body, SECRET) },
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  /** What Stripe sends when a session was paid, built by hand: for a page paid just before it was closed. */
  const paidEvent = (session: string, invoiceId: string, amount: number, currency: string, intent: string) =>
    JSON.stringify({
      id: `evt_${intent}`,
      object: 'event',
      api_version: '2026-07-29.dahlia',
      created: Math.floor(Date.now() / 1000),
      account,
      data: {
        object: {
          id: session,
          object: 'checkout.session',
          mode: 'payment',
          status: 'complete',
          payment_status: 'paid',
          amount_total: amount,
          currency,
          payment_intent: intent,
          metadata: { invoice_id: invoiceId },
        },
      },
      type: 'checkout.session.completed',
    });
  const invoice = async (id: string) =>
    (await api('GET', `/business/customer-invoices/${id}`, staff)).body.body;
  const notes = async (enquiryId: string) =>
    ((await api('GET', `/enquiries/${enquiryId}/notes`, staff)).body.body.items as Json[])
      .filter((n) => n.kind === 'event')
      .map((n) => n.body as string);
  const enquiryStatus = async (id: string) =>
    (await t.app.db.select({ status: enquiries.status }).from(enquiries).where(eq(enquiries.id, id)))[0]
      ?.status;
  const reviewJobs = (invoiceId: string) => t.app.jobs.findJobs(reviewAfterPayment, invoiceId);

  beforeAll(async () => {
    stripe = new FakeStripe();
    await stripe.start();
    t = await createTestApp({
      STRIPE_SECRET_KEY: 'sk_test_fake',
      STRIPE_WEBHOOK_SECRET: SECRET,
      STRIPE_API_BASE: stripe.url,
      CHECKOUT_MAX_PER_LINK: '4',
      CHECKOUT_MAX_PER_IP: '6',
      CHECKOUT_WINDOW_SECONDS: '600',
    });
    api = apiClient(t);
    owner = await t.login(DEMO_LOGINS.owner);
    staff = await t.login(DEMO_LOGINS.staff1);
    loc = await selectedLocation(t, owner);
    expect((await api('GET', '/business/mybusiness/stripe-connect-link', owner)).status).toBe(200);
    account = stripe.callsTo('POST', '/v1/account_links')[0]!.form.get('account')!;
    const reviews = await api('PUT', `/business/locations/${loc}/review-reminders`, owner, {
      after_payment: true,
      after_payment_hours: 24,
    });
    expect(reviews.status, JSON.stringify(reviews.body)).toBe(200);
    const link = await api('PATCH', `/business/locations/${loc}/update-review-template`, owner, {
      review_link: 'https://search.google.com/local/writereview?placeid=ChIJtest',
    });
    expect(link.status, JSON.stringify(link.body)).toBe(200);
  });
  afterAll(async () => {
    await t.close();
    await stripe.close();
  });

  it('closes the open Checkout page when the invoice is edited, and counts an old page paid meanwhile as a part payment', async () => {
    const { inv, secret } = await sentInvoice([item(1000)]);
    const first = await checkout(secret);
    expect(first.statusCode, first.body).toBe(200);
    const old = sessionOf(first);
    expect(stripe.sessions.get(old)).toMatchObject({ amount_total: 1000, status: 'open' });

    const edited = await api('PUT', `/business/customer-invoices/${inv.id}`, staff, {
      items: [item(100_000)],
    });
    expect(edited.body.body).toMatchObject({ total_cents: 100_000, amount_due_cents: 100_000 });
    // Closed at Stripe, on the business's account: the customer's old page cannot be paid any more.
    const expire = await eventually(
      async () => stripe.callsTo('POST', `/v1/checkout/sessions/${old}/expire`)[0],
    );
    expect(expire.headers['stripe-account']).toBe(account);
    expect(() => stripe.pay(old)).toThrow(/expired/);

    // Had the customer paid the old page just before it closed, Stripe's event says $10 arrived: a part payment.
    await deliver(paidEvent(old, inv.id, 1000, 'aud', 'pi_old_page'));
    expect(await invoice(inv.id)).toMatchObject({
      status: 'partially_paid',
      amount_paid_cents: 1000,
      amount_due_cents: 99_000,
      paid_at: null,
      needs_refund: [],
    });
    expect(await notes(inv.enquiry_id)).toContain(
      `Invoice ${inv.number} part paid: $10.00 of $1,000.00 ($990.00 left).`,
    );
    // Not paid in full: the conversation stays open and no review is asked for.
    expect(await enquiryStatus(inv.enquiry_id)).not.toBe('closed');
    expect(await reviewJobs(inv.id)).toHaveLength(0);
    const page = (
      await t.request({ method: 'GET', url: `/api/v1/business/invoices/secret/${secret}` })
    ).json().body;
    expect(page).toMatchObject({ status: 'partially_paid', amount_due_cents: 99_000, can_pay: true });

    // The customer pays the rest on a new page, for the balance only.
    const rest = await checkout(secret);
    expect(rest.statusCode, rest.body).toBe(200);
    const balance = stripe.callsTo('POST', '/v1/checkout/sessions').at(-1)!;
    expect(balance.form.get('line_items[0][price_data][unit_amount]')).toBe('99000');
    expect(balance.form.get('line_items[0][price_data][product_data][name]')).toBe(
      `Invoice ${inv.number}: balance due`,
    );
    expect(balance.form.has('line_items[1][quantity]')).toBe(false);
    await deliver(stripe.pay(sessionOf(rest)));
    expect(await invoice(inv.id)).toMatchObject({
      status: 'paid',
      amount_paid_cents: 100_000,
      amount_due_cents: 0,
    });
    expect(await enquiryStatus(inv.enquiry_id)).toBe('closed');
    expect(await reviewJobs(inv.id)).toHaveLength(1);
  });

  it('never makes a void invoice paid: a payment that arrives anyway is kept as owed back, and refunded', async () => {
    const { inv, secret } = await sentInvoice([item(1000)]);
    const session = sessionOf(await checkout(secret));
    expect((await api('POST', `/business/customer-invoices/${inv.id}/void`, owner)).status).toBe(200);
    await eventually(async () => stripe.callsTo('POST', `/v1/checkout/sessions/${session}/expire`)[0]);
    expect(() => stripe.pay(session)).toThrow(/expired/);
    expect((await checkout(secret)).statusCode).toBe(409);

    // Paid in the moment before it was closed.
    await deliver(paidEvent(session, inv.id, 1000, 'aud', 'pi_after_void'));
    const after = await invoice(inv.id);
    expect(after).toMatchObject({ status: 'void', amount_paid_cents: 0, paid_at: null });
    expect(after.needs_refund).toEqual([
      { currency: 'AUD', amount_cents: 1000, reason: 'void', received_at: expect.any(String) },
    ]);
    expect(await notes(inv.enquiry_id)).toContain(
      `Invoice ${inv.number}: a payment was not counted. $10.00 arrived after it was voided: refund it to the customer.`,
    );
    expect(await reviewJobs(inv.id)).toHaveLength(0);

    const refunded = await api('POST', `/business/customer-invoices/${inv.id}/refund-unowed`, owner);
    expect(refunded.status, JSON.stringify(refunded.body)).toBe(200);
    expect(refunded.body.body).toMatchObject({ status: 'void', needs_refund: [] });
    const call = stripe.callsTo('POST', '/v1/refunds').at(-1)!;
    expect(call.form.get('payment_intent')).toBe('pi_after_void');
    expect(call.form.get('amount')).toBe('1000');
    expect(call.headers['stripe-account']).toBe(account);
  });

  it('flags money in another currency or beyond the total for the owner, never a silent paid', async () => {
    const { inv } = await sentInvoice([item(1000)]);
    await deliver(paidEvent('cs_elsewhere_1', inv.id, 1000, 'usd', 'pi_in_usd'));
    let now = await invoice(inv.id);
    expect(now.status).toBe('sent');
    expect(now.amount_paid_cents).toBe(0);
    expect(now.needs_refund).toMatchObject([
      { currency: 'USD', amount_cents: 1000, reason: 'other_currency' },
    ]);

    await deliver(paidEvent('cs_elsewhere_2', inv.id, 1500, 'aud', 'pi_too_much'));
    now = await invoice(inv.id);
    expect(now).toMatchObject({ status: 'paid', amount_paid_cents: 1000 });
    expect(now.needs_refund).toMatchObject([
      { currency: 'USD', amount_cents: 1000, reason: 'other_currency' },
      { currency: 'AUD', amount_cents: 500, reason: 'overpaid' },
    ]);
    expect(await notes(inv.enquiry_id)).toContain(
      `Invoice ${inv.number} paid: $10.00. $5.00 arrived beyond what it owed: refund it to the customer.`,
    );
  });

  it.each([
    // [currency, price in ISO minor units, what Stripe is asked for, what the invoice shows]
    ['JPY', 1000, '1000', 'JPY\u00a01,000'],
    ['KRW', 50_000, '50000', 'KRW\u00a050,000'],
    ['AUD', 1250, '1250', '$12.50'],
    ['HUF', 123_450, '123450', 'HUF\u00a01,234.50'],
    // Three decimals, the last one 0: 5.124 KWD is invoiced and charged as 5.120.
    ['KWD', 5124, '5120', 'KWD\u00a05.120'],
    ['BHD', 1500, '1500', 'BHD\u00a01.500'],
    // No minor unit in ISO, hundredths at Stripe.
    ['ISK', 500, '50000', 'ISK\u00a0500'],
  ])('charges %s in the amount Stripe counts for it', async (currency, price, charged, shown) => {
    const { inv, secret } = await sentInvoice([item(price)], currency);
    const res = await checkout(secret);
    expect(res.statusCode, res.body).toBe(200);
    const call = stripe.callsTo('POST', '/v1/checkout/sessions').at(-1)!;
    expect(call.form.get('line_items[0][price_data][currency]')).toBe(currency.toLowerCase());
    expect(call.form.get('line_items[0][price_data][unit_amount]')).toBe(charged);
    // Paying that session pays the invoice in full, read back in the currency's own minor units.
    await deliver(stripe.pay(sessionOf(res)));
    const paid = await invoice(inv.id);
    expect(paid).toMatchObject({ status: 'paid', amount_paid_cents: paid.total_cents, currency });
    expect(await notes(inv.enquiry_id)).toContain(`Invoice ${inv.number} paid: ${shown}.`);
  });

  it('refuses what one card payment cannot be with a 400 that says so', async () => {
    const { secret } = await sentInvoice([item(1_000_000_000)], 'JPY');
    const res = await checkout(secret);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(
      'JPY\u00a01,000,000,000 is more than one card payment can be (at most JPY\u00a099,999,999). Contact Harbourside Dental to pay another way.',
    );
  });

  it('reuses the open page and limits starting payments per link and per client address, saying when to try again', async () => {
    const { secret } = await sentInvoice([item(2000)]);
    const before = stripe.callsTo('POST', '/v1/checkout/sessions').length;
    const urls = new Set<string>();
    for (let i = 0; i < 4; i++) {
      const res = await checkout(secret);
      expect(res.statusCode, res.body).toBe(200);
      urls.add(res.json().body.url);
    }
    // One session at Stripe for four clicks.
    expect(urls.size).toBe(1);
    expect(stripe.callsTo('POST', '/v1/checkout/sessions').length).toBe(before + 1);
    const limited = await checkout(secret);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json().message).toMatch(
      /^Too many payment attempts\. Please try again in \d+ minutes?\.$/,
    );

    // One address across many links.
    const links = await Promise.all([1, 2].map(() => sentInvoice([item(3000)])));
    const from = '203.0.113.77';
    for (const { secret: s } of links)
      for (let i = 0; i < 3; i++) expect((await checkout(s, from)).statusCode).toBe(200);
    const third = await sentInvoice([item(3000)]);
    expect((await checkout(third.secret, from)).statusCode).toBe(429);
    expect((await checkout(third.secret)).statusCode).toBe(200);
  });
});
