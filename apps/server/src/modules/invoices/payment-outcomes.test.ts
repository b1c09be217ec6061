import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DEMO_LOGINS, inbound, selectedLocation, type TestApp } from '../../test/helpers.ts';

// biome-ignore lint/suspicious/noExplicitAny: tests read whatever the API answered.
type Json = Record<string, any>;

describe('what the team sees when the customer pays or is declined (sandbox payments)', () => {
  let t: TestApp;
  let owner: string;
  let staff: string;
  let loc: string;

  const api = async (method: string, url: string, token: string, payload?: unknown) => {
    const res = await t.request({
      method: method as 'GET',
      url: `/api/v1${url}`,
      token,
      payload: payload as Json,
    });
    return { status: res.statusCode, body: res.json() as Json };
  };

  /** An invoice sent in a new conversation, with a Checkout session open on the sandbox's payment page. */
  async function sentInvoice(phone: string, closeOnPaid: boolean) {
    const { enquiry_id } = await inbound(t, owner, {
      location_id: loc,
      from: { phone, name: 'Pat Customer' },
      message: 'Can I pay by card?',
    });
    const inv = (
      await api('POST', '/business/customer-invoices', staff, {
        enquiry_id,
        items: [{ description: 'Consult', quantity: 1, unit_price_cents: 5000, tax_rate: 10 }],
      })
    ).body.body;
    await api('POST', `/business/customer-invoices/${inv.id}/send`, staff, { close_on_paid: closeOnPaid });
    const secret = inv.pay_url.split('/pay/')[1];
    const checkout = await t.request({
      method: 'POST',
      url: `/api/v1/business/invoices/secret/${secret}/checkout`,
    });
    expect(checkout.statusCode, checkout.body).toBe(200);
    const session = checkout.json().body.url.split('/sandbox/checkout/')[1] as string;
    return { enquiry_id, inv, session };
  }
  const outcome = (session: string, what: 'pay' | 'decline') =>
    t.request({ method: 'POST', url: `/api/v1/sandbox/checkout/${session}`, payload: { outcome: what } });

  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.login(DEMO_LOGINS.owner);
    staff = await t.login(DEMO_LOGINS.staff1);
    loc = await selectedLocation(t, owner);
    expect((await api('GET', '/business/mybusiness/stripe-connect-link', owner)).status).toBe(200);
  });
  afterAll(() => t.close());

  it('a conversation closed because its invoice was paid no longer needs a person', async () => {
    const { enquiry_id, session } = await sentInvoice('+61491570201', true);
    const flagged = await api('PUT', `/enquiries/${enquiry_id}/needs-person`, staff, { needs_person: true });
    expect(flagged.body.body.needs_person).toBe(true);
    expect((await outcome(session, 'pay')).statusCode).toBe(200);
    const after = (await api('GET', `/enquiries/${enquiry_id}`, staff)).body.body;
    expect(after).toMatchObject({ status: 'closed', needs_person: false });
  });

  it('a paid invoice that does not close its conversation leaves "Needs a person" as it was', async () => {
    const { enquiry_id, session } = await sentInvoice('+61491570202', false);
    await api('PUT', `/enquiries/${enquiry_id}/needs-person`, staff, { needs_person: true });
    expect((await outcome(session, 'pay')).statusCode).toBe(200);
    const after = (await api('GET', `/enquiries/${enquiry_id}`, staff)).body.body;
    expect(after).toMatchObject({ status: 'open', needs_person: true });
  });

  it('a refund counts in the analytics of the day it was made, and net collected is paid less refunded', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const report = async () =>
      (await api('GET', `/analytics/invoices?start=${today}&end=${today}&timezone=UTC`, owner)).body.body;
    const before = (await report()).amounts.find((a: Json) => a.currency === 'AUD');
    const { inv, session } = await sentInvoice('+61491570204', false);
    expect((await outcome(session, 'pay')).statusCode).toBe(200);
    const refund = await api('POST', `/business/customer-invoices/${inv.id}/refund`, owner, {
      amount_cents: 1500,
    });
    expect(refund.status).toBe(200);
    const after = (await report()).amounts.find((a: Json) => a.currency === 'AUD');
    expect(after.refunded_cents - (before?.refunded_cents ?? 0)).toBe(1500);
    expect(after.paid_cents - (before?.paid_cents ?? 0)).toBe(5500);
    expect(after.net_cents).toBe(after.paid_cents - after.refunded_cents);
  });

  it('a declined card leaves a line in the conversation, and the customer can still pay', async () => {
    const { enquiry_id, inv, session } = await sentInvoice('+61491570203', false);
    const declined = await outcome(session, 'decline');
    expect(declined.statusCode, declined.body).toBe(200);
    const notes = (await api('GET', `/enquiries/${enquiry_id}/notes`, staff)).body.body.items as Json[];
    expect(notes.at(-1)).toMatchObject({
      kind: 'event',
      user_id: null,
      body: `Card payment for invoice ${inv.number} was declined — the customer can try again. Stripe said: Your card was declined.`,
    });
    const invoice = (await api('GET', `/business/customer-invoices/${inv.id}`, staff)).body.body;
    expect(invoice.status).not.toBe('paid');
    const again = await t.request({
      method: 'POST',
      url: `/api/v1/business/invoices/secret/${inv.pay_url.split('/pay/')[1]}/checkout`,
    });
    expect(again.statusCode).toBe(200);
  });
});
