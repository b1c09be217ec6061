import { reviewRequests } from '@switchboard/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  DEMO_LOGINS,
  eventually,
  inbound,
  selectedLocation,
  type TestApp,
} from '../../test/helpers.ts';
import { remindReview, reviewAfterPaid } from './service.ts';

// biome-ignore lint/suspicious/noExplicitAny: tests read whatever the API answered.
type Json = Record<string, any>;

describe('review requests', () => {
  let t: TestApp;
  let owner: string;
  let staff: string;
  let other: string;
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
  const customer = async (name: string) =>
    inbound(t, owner, {
      location_id: loc,
      from: { phone: `+614915${String(Math.floor(Math.random() * 1e5)).padStart(5, '0')}`, name },
      message: 'Thanks for today',
    });
  const thread = async (enquiryId: string) =>
    (await api('GET', `/enquiries/${enquiryId}/messages`, staff)).body.body.items as Json[];

  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.login(DEMO_LOGINS.owner);
    staff = await t.login(DEMO_LOGINS.staff1);
    other = await t.login(DEMO_LOGINS.northsideOwner);
    loc = await selectedLocation(t, owner);
  });
  afterAll(() => t.close());

  it('needs the location’s review link first, and only the owner sets the text and link', async () => {
    const { enquiry_id } = await customer('Ned Nolink');
    const refused = await api('POST', '/business/review-requests', staff, { enquiry_id });
    expect(refused.status).toBe(422);
    expect(refused.body.message).toBe(
      "Add Harbourside Dental Docklands's review link first (Reviews → Settings).",
    );
    expect(
      (
        await api('PATCH', `/business/locations/${loc}/update-review-template`, staff, {
          review_link: 'https://g.page/r/x/review',
        })
      ).status,
    ).toBe(403);
    const bad = await api('PATCH', `/business/locations/${loc}/update-review-template`, owner, {
      review_message: 'Hi {firstname}',
    });
    expect(bad.status).toBe(422);
    expect(bad.body.message).toMatch(/^\{firstname\} is not a placeholder/);
    const notHttps = await api('PATCH', `/business/locations/${loc}/update-review-template`, owner, {
      review_link: 'javascript:alert(1)',
    });
    expect(notHttps.status).toBe(400);
    const set = await api('PATCH', `/business/locations/${loc}/update-review-template`, owner, {
      review_message: 'Hi {first_name}, thanks for visiting {location_name}! A review would mean a lot.',
      review_link: 'https://search.google.com/local/writereview?placeid=ChIJtest',
    });
    expect(set.status).toBe(200);
    expect(set.body.body).toMatchObject({
      location_id: loc,
      review_link: 'https://search.google.com/local/writereview?placeid=ChIJtest',
    });
    expect(
      (
        await api('PATCH', `/business/locations/${loc}/update-review-template`, other, {
          review_message: 'x',
        })
      ).status,
    ).toBe(404);
  });

  it('asks in the conversation with a tracked short link; the click is recorded, the conversation says so, and the customer goes on to the review page', async () => {
    const { enquiry_id } = await customer('Rita Review');
    const res = await api('POST', '/business/review-requests', staff, { enquiry_id });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.body).toEqual({ sent: 1, skipped: [] });
    const asked = (await thread(enquiry_id)).find((m) => m.meta.auto === 'review_request')!;
    const link = asked.message.match(/http\S+\/r\/([\w-]+)$/)!;
    expect(asked.message).toBe(
      `Hi Rita, thanks for visiting Harbourside Dental Docklands! A review would mean a lot.\n${link[0]}`,
    );
    const [row] = await t.app.db.select().from(reviewRequests).where(eq(reviewRequests.token, link[1]!));
    expect(row).toMatchObject({ status: 'sent', reminders_sent: 0 });
    expect(row!.next_reminder_at).toBeTruthy();

    const open = await t.request({ method: 'GET', url: `/r/${link[1]}` });
    expect(open.statusCode).toBe(302);
    expect(open.headers.location).toBe('https://search.google.com/local/writereview?placeid=ChIJtest');
    const [clicked] = await t.app.db.select().from(reviewRequests).where(eq(reviewRequests.id, row!.id));
    expect(clicked).toMatchObject({
      status: 'clicked',
      next_reminder_at: null,
      reminders_stopped: 'clicked',
    });
    const notes = (await api('GET', `/enquiries/${enquiry_id}/notes`, staff)).body.body.items as Json[];
    expect(notes.at(-1)).toMatchObject({ kind: 'event', body: 'Opened the review link.' });
    // A reminder due now finds the link opened and sends nothing.
    await remindReview(t.app, { request_id: row!.id, reminder: 1 });
    expect((await thread(enquiry_id)).filter((m) => m.meta.auto === 'review_reminder')).toHaveLength(0);
    // A second open still goes on, and counts once.
    expect((await t.request({ method: 'GET', url: `/r/${link[1]}` })).statusCode).toBe(302);
    expect((await t.request({ method: 'GET', url: '/r/not-a-token' })).statusCode).toBe(404);

    // Asked once per customer per window (90 days by default).
    const again = await api('POST', '/business/review-requests', staff, { enquiry_id });
    expect(again.status).toBe(409);
    expect(again.body.message).toMatch(
      /^Rita Review was asked for a review on .+; they can be asked again from .+\.$/,
    );
  });

  it('reminds once by default, not when the customer has replied, and only between 9:00 and 20:00', async () => {
    await api('PUT', `/business/locations/${loc}/review-reminders`, owner, {
      max_reminders: 1,
      delay_days: 2,
    });
    const quiet = await customer('Quinn Quiet');
    await api('POST', '/business/review-requests', staff, { enquiry_id: quiet.enquiry_id });
    const [q] = await t.app.db
      .select()
      .from(reviewRequests)
      .where(eq(reviewRequests.enquiry_id, quiet.enquiry_id));
    // Scheduled two days on, inside sending hours where the location is (Melbourne).
    const local = new Intl.DateTimeFormat('en-AU', {
      hour: 'numeric',
      hourCycle: 'h23',
      timeZone: 'Australia/Melbourne',
    }).format(q!.next_reminder_at!);
    expect(Number(local)).toBeGreaterThanOrEqual(9);
    expect(Number(local)).toBeLessThan(20);
    expect(q!.next_reminder_at!.getTime() - q!.sent_at.getTime()).toBeGreaterThanOrEqual(2 * 86_400_000);

    const replied = await customer('Rory Replied');
    await api('POST', '/business/review-requests', staff, { enquiry_id: replied.enquiry_id });
    await inbound(t, owner, {
      location_id: loc,
      from: { phone: (await api('GET', `/enquiries/${replied.enquiry_id}`, staff)).body.body.customer.phone },
      message: 'Done, thanks!',
    });
    // The reply stops the reminders from the message's event, just after the webhook answered.
    const r = await eventually(async () => {
      const [row] = await t.app.db
        .select()
        .from(reviewRequests)
        .where(eq(reviewRequests.enquiry_id, replied.enquiry_id));
      return row?.reminders_stopped ? row : null;
    });
    expect(r).toMatchObject({ next_reminder_at: null, reminders_stopped: 'replied' });

    // The quiet one's reminder: at 22:00 in Melbourne it waits for the morning; at 10:00 it goes, once.
    const night = new Date('2026-12-01T11:00:00Z');
    await remindReview(t.app, { request_id: q!.id, reminder: 1 }, night);
    expect((await thread(quiet.enquiry_id)).filter((m) => m.meta.auto === 'review_reminder')).toHaveLength(0);
    const morning = new Date('2026-12-01T23:00:00Z');
    await remindReview(t.app, { request_id: q!.id, reminder: 1 }, morning);
    await remindReview(t.app, { request_id: q!.id, reminder: 1 }, morning);
    const reminders = (await thread(quiet.enquiry_id)).filter((m) => m.meta.auto === 'review_reminder');
    expect(reminders).toHaveLength(1);
    expect(reminders[0]!.message).toMatch(/^Hi Quinn, a quick reminder: .+\n.+\/r\/[\w-]+$/);
    const [after] = await t.app.db.select().from(reviewRequests).where(eq(reviewRequests.id, q!.id));
    expect(after).toMatchObject({ reminders_sent: 1, next_reminder_at: null });
    // The replied one's reminder sends nothing.
    await remindReview(t.app, { request_id: r!.id, reminder: 1 }, morning);
    expect((await thread(replied.enquiry_id)).filter((m) => m.meta.auto === 'review_reminder')).toHaveLength(
      0,
    );
  });

  it('asks a list of customers alike, saying who was skipped and why', async () => {
    const a = await customer('Ava List');
    const b = await customer('Ben List');
    const aId = (await api('GET', `/enquiries/${a.enquiry_id}`, staff)).body.body.customer_id;
    const bId = (await api('GET', `/enquiries/${b.enquiry_id}`, staff)).body.body.customer_id;
    await api('POST', '/business/review-requests', staff, { enquiry_id: b.enquiry_id });
    const res = await api('POST', '/business/review-requests', staff, {
      customer_ids: [aId, bId],
      location_id: loc,
    });
    expect(res.body.body.sent).toBe(1);
    expect(res.body.body.skipped).toEqual([
      {
        customer_id: bId,
        name: 'Ben List',
        reason: expect.stringMatching(/^Ben List was asked for a review on/),
      },
    ]);
    expect(
      (await api('POST', '/business/review-requests', other, { customer_ids: [aId], location_id: loc }))
        .status,
    ).toBe(404);
  });

  it('lists requests with how many were opened', async () => {
    const list = (await api('GET', '/business/review-requests?page_size=50', staff)).body.body;
    expect(list.stats.sent).toBe(list.total);
    expect(list.stats.clicked).toBe(1);
    expect(list.stats.rate).toBe(Math.round((1 / list.total) * 1000) / 10);
    expect(list.items.find((i: Json) => i.customer_name === 'Rita Review')).toMatchObject({
      status: 'clicked',
    });
    const clicked = (await api('GET', '/business/review-requests?status=clicked', staff)).body.body;
    expect(clicked.items).toHaveLength(1);
    expect((await api('GET', '/business/review-requests', other)).body.body.total).toBe(0);
  });

  it('asks a customer whose invoice was paid, when the location wants that', async () => {
    await api('PUT', `/business/locations/${loc}/review-reminders`, owner, {
      after_payment: true,
      after_payment_hours: 24,
    });
    const { enquiry_id } = await customer('Pat Paid');
    await api('GET', '/business/mybusiness/stripe-connect-link', owner);
    const inv = (
      await api('POST', '/business/customer-invoices', staff, {
        enquiry_id,
        items: [{ description: 'Clean', quantity: 1, unit_price_cents: 9000, tax_rate: 0 }],
      })
    ).body.body;
    const sent = await api('POST', `/business/customer-invoices/${inv.id}/send`, staff, {});
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const secret = inv.pay_url.split('/pay/')[1];
    const checkout = await t.request({
      method: 'POST',
      url: `/api/v1/business/invoices/secret/${secret}/checkout`,
    });
    expect(checkout.statusCode, checkout.body).toBe(200);
    const session = checkout.json().body.url.split('/sandbox/checkout/')[1];
    await t.request({
      method: 'POST',
      url: `/api/v1/sandbox/checkout/${session}`,
      payload: { outcome: 'pay' },
    });
    // The job waits a day; run now, it asks in the invoice's conversation.
    await reviewAfterPaid(t.app, { invoice_id: inv.id });
    const [row] = await t.app.db.select().from(reviewRequests).where(eq(reviewRequests.invoice_id, inv.id));
    expect(row).toMatchObject({ enquiry_id, status: 'sent' });
    expect((await thread(enquiry_id)).filter((m) => m.meta.auto === 'review_request')).toHaveLength(1);
    // Run again (a retry): the customer was just asked, so nothing more.
    await reviewAfterPaid(t.app, { invoice_id: inv.id });
    expect((await thread(enquiry_id)).filter((m) => m.meta.auto === 'review_request')).toHaveLength(1);
  });

  it('offers the business’s own places in the sandbox’s Business Profile, never another business’s', async () => {
    const places = (await api('GET', '/business/locations/google-locations', owner)).body.body;
    expect(places.source).toBe('sandbox');
    expect(places.items[0].review_link).toMatch(
      /^https:\/\/search\.google\.com\/local\/writereview\?placeid=/,
    );
    expect(places.items[0].title).toMatch(/^Harbourside Dental/);
    const northside = await t.login(DEMO_LOGINS.northsideOwner);
    const theirs = (await api('GET', '/business/locations/google-locations', northside)).body.body;
    expect(theirs.items.length).toBeGreaterThan(0);
    for (const place of theirs.items) expect(place.title).not.toMatch(/Harbourside/);
  });
});
