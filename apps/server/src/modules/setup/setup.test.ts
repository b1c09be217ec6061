import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeMailServer, fakeMailServer } from '../../channels/email/testing.ts';
import { connectAccount } from '../../test/demo.ts';
import {
  apiClient,
  createTestApp,
  DEMO_LOGINS,
  eventually,
  inbound,
  type Json,
  listen,
  openSocket,
  type TestApp,
} from '../../test/helpers.ts';
import {
  channelTestApp,
  FakeProvider,
  SETUP_TIMEOUT_MS,
  TWILIO_SID,
  TWILIO_TOKEN,
} from '../channels/test-support.ts';

const PUBLIC_URL = 'https://switchboard.example.com';
const WEEK = {
  sun: [],
  mon: [{ open: '09:00', close: '17:00' }],
  tue: [],
  wed: [],
  thu: [],
  fri: [],
  sat: [],
};

type Setup = {
  items: { key: string; done: boolean; location_id: string | null }[];
  number: { phone: string; location_id: string; location_name: string | null; sandbox: boolean } | null;
  has_enquiries: boolean;
  dismissed_at: string | null;
};

describe('the set-up checklist', () => {
  let t: TestApp;
  let mail: FakeMailServer;
  let url: string;
  const sockets: Socket[] = [];
  const api = (...args: Parameters<ReturnType<typeof apiClient>>) => apiClient(t)(...args);

  /** A new business through the real sign-up: the form, the emailed code, its owner signed in. */
  async function signUp(name: string, email: string, ip: string) {
    const form = await api('GET', '/business/register/form');
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/v1/business/register',
      remoteAddress: ip,
      payload: {
        business_name: name,
        full_name: `${name} Owner`,
        email,
        password: 'a good long password',
        mobile: '0412 345 678',
        country: 'AU',
        timezone: 'Australia/Sydney',
        location: { name, address: '1 The Corso, Manly NSW' },
        meta: {},
        form_token: form.body.body.form_token,
        website: '',
      },
    });
    expect(started.statusCode, started.body).toBe(200);
    const sent = await eventually(async () =>
      mail.received.find((m) => m.rcpt_to.some((r) => r.toLowerCase() === email)),
    );
    const code = /is (\d{6})/.exec(sent.email.text ?? '')?.[1];
    const done = await t.app.inject({
      method: 'POST',
      url: '/api/v1/business/register/confirm',
      remoteAddress: ip,
      payload: { email, code },
    });
    expect(done.statusCode, done.body).toBe(200);
    const token = done.json().body.token as string;
    const me = await api('GET', '/user/me', token);
    const business = (me.body.body.businesses as Json[]).find((b) => b.selected)!;
    return { token, locationId: business.locations[0].id as string };
  }

  const setupOf = async (token: string) => {
    const res = await api('GET', '/business/setup', token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.body as Setup;
  };
  const doneOf = async (token: string) =>
    Object.fromEntries((await setupOf(token)).items.map((i) => [i.key, i.done]));

  /** A visitor's chat through the widget, started on `page` (the loader sends the page it runs on). */
  async function chat(locationId: string, page: { url?: string }, ip: string) {
    const session = await t.request({
      method: 'POST',
      url: `/widget-api/locations/${locationId}/sessions`,
      payload: { name: 'Wendy Widget', email: 'wendy@example.com', page },
      remoteAddress: ip,
    });
    expect(session.statusCode, session.body).toBe(200);
    const socket = await openSocket(`${url}/visitor`, session.json().visitor_token, sockets);
    const ack = (await socket
      .timeout(15_000)
      .emitWithAck('message', { text: 'Are you open Saturday?', client_id: `c-${ip}` })) as { ok: boolean };
    expect(ack.ok).toBe(true);
  }

  let a: { token: string; locationId: string };
  let b: { token: string; locationId: string };

  beforeAll(async () => {
    mail = await fakeMailServer();
    t = await createTestApp({ SMTP_URL: mail.url, PUBLIC_URL, SIGNUP_MIN_SECONDS: '0' });
    url = await listen(t);
    a = await signUp('Bayside Physio', 'bea@bayside.test', '203.0.113.60');
    b = await signUp('Coastal Cuts', 'cal@coastal.test', '203.0.113.61');
  });
  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await t.close();
    await mail.stop();
  });

  it('starts with every item to do for a business that has just signed up', async () => {
    const setup = await setupOf(a.token);
    expect(setup.items).toEqual([
      { key: 'number', done: false, location_id: a.locationId },
      { key: 'chat', done: false, location_id: a.locationId },
      { key: 'team', done: false, location_id: null },
      { key: 'assistant', done: false, location_id: null },
      { key: 'payments', done: false, location_id: null },
      { key: 'review_link', done: false, location_id: a.locationId },
      { key: 'hours', done: false, location_id: a.locationId },
    ]);
    expect(setup).toMatchObject({ number: null, has_enquiries: false, dismissed_at: null });
  });

  it('ticks each item when its real data appears, and only for that business', async () => {
    // A sandbox number for texting.
    expect(
      (await api('POST', `/business/locations/purchase-number/${a.locationId}`, a.token, {})).status,
    ).toBe(200);
    const withNumber = await setupOf(a.token);
    expect(withNumber.items.find((i) => i.key === 'number')?.done).toBe(true);
    expect(withNumber.number).toMatchObject({
      phone: expect.stringMatching(/^\+61491570\d{3}$/),
      location_id: a.locationId,
      location_name: 'Bayside Physio',
      sandbox: true,
    });

    // The chat page opened on its own (no host page), and the chat on the app's own pages, are not the website.
    await chat(a.locationId, {}, '198.51.100.1');
    await chat(a.locationId, { url: `${PUBLIC_URL}/widget?location=${a.locationId}` }, '198.51.100.2');
    expect((await doneOf(a.token)).chat).toBe(false);
    await chat(a.locationId, { url: 'https://bayside-physio.example/contact?utm_source=x' }, '198.51.100.3');
    expect((await doneOf(a.token)).chat).toBe(true);

    // An invitation out is a teammate on the way; revoked, there is none.
    const invited = await api('POST', '/business/members/invitations', a.token, {
      email: 'tess@bayside.test',
    });
    expect(invited.status, JSON.stringify(invited.body)).toBe(200);
    expect((await doneOf(a.token)).team).toBe(true);
    const pending = await api('GET', '/business/members/invitations', a.token);
    const invitationId = pending.body.body.items[0].id as string;
    expect((await api('DELETE', `/business/members/invitations/${invitationId}`, a.token)).status).toBe(200);
    expect((await doneOf(a.token)).team).toBe(false);
    await api('POST', '/business/members/invitations', a.token, { email: 'tess@bayside.test' });
    expect((await doneOf(a.token)).team).toBe(true);

    // One FAQ teaches the assistant; deleted, it has nothing again.
    const faq = await api('POST', '/business/ai/faqs', a.token, {
      question: 'Do you take walk-ins?',
      answer: 'Yes, until 4 pm.',
    });
    expect(faq.status, JSON.stringify(faq.body)).toBe(200);
    expect((await doneOf(a.token)).assistant).toBe(true);
    expect((await api('DELETE', `/business/ai/faqs/${faq.body.body.id}`, a.token)).status).toBe(200);
    expect((await doneOf(a.token)).assistant).toBe(false);
    await api('POST', '/business/ai/faqs', a.token, { question: 'Parking?', answer: 'Behind the clinic.' });

    // Card payments: the sandbox's connected account is ready at once.
    expect((await api('GET', '/business/mybusiness/stripe-connect-link', a.token)).status).toBe(200);
    expect((await doneOf(a.token)).payments).toBe(true);

    const review = await api('PATCH', `/business/locations/${a.locationId}/update-review-template`, a.token, {
      review_link: 'https://g.page/r/bayside/review',
    });
    expect(review.status, JSON.stringify(review.body)).toBe(200);
    expect((await doneOf(a.token)).review_link).toBe(true);

    const hours = await api('PATCH', `/business/locations/${a.locationId}`, a.token, { opening_hours: WEEK });
    expect(hours.status, JSON.stringify(hours.body)).toBe(200);
    const all = await setupOf(a.token);
    expect(all.items.every((i) => i.done)).toBe(true);
    // The chats above are enquiries.
    expect(all.has_enquiries).toBe(true);

    // The other business has done none of it.
    const other = await setupOf(b.token);
    expect(other.items.map((i) => i.done)).toEqual([false, false, false, false, false, false, false]);
    expect(other).toMatchObject({ number: null, has_enquiries: false });
  });

  it('holds per-location items until every location has them, pointing at the first without', async () => {
    const added = await api('POST', '/business/locations', a.token, { name: 'Bayside Physio Dee Why' });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const second = added.body.body.id as string;
    const setup = await setupOf(a.token);
    expect(setup.items.find((i) => i.key === 'hours')).toEqual({
      key: 'hours',
      done: false,
      location_id: second,
    });
    expect(setup.items.find((i) => i.key === 'review_link')).toMatchObject({
      done: false,
      location_id: second,
    });
    // A number at one location is enough to text.
    expect(setup.items.find((i) => i.key === 'number')?.done).toBe(true);
  });

  it('a first text is the business’s first enquiry', async () => {
    expect((await setupOf(b.token)).has_enquiries).toBe(false);
    await inbound(t, b.token, {
      location_id: b.locationId,
      from: { phone: '+61400000111' },
      message: 'HELLO',
    });
    expect((await setupOf(b.token)).has_enquiries).toBe(true);
    expect((await setupOf(b.token)).items.every((i) => !i.done)).toBe(true);
  });

  it('lets the owner put the checklist away and bring it back; staff read it but cannot', async () => {
    const staff = await t.login(DEMO_LOGINS.staff1);
    const owner = await t.login(DEMO_LOGINS.owner);
    expect((await api('GET', '/business/setup', staff)).status).toBe(200);
    const refused = await api('PUT', '/business/setup', staff, { dismissed: true });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toMatch(/Only the business owner/);
    expect((await setupOf(owner)).dismissed_at).toBeNull();

    const bad = await api('PUT', '/business/setup', a.token, { dismissed: 'yes' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toMatch(/put away/);
    expect((await setupOf(a.token)).dismissed_at).toBeNull();

    const away = await api('PUT', '/business/setup', a.token, { dismissed: true });
    expect(away.status).toBe(200);
    const at = away.body.body.dismissed_at as string;
    expect(Date.parse(at)).toBeGreaterThan(Date.now() - 60_000);
    // Only this business's list is put away.
    expect((await setupOf(b.token)).dismissed_at).toBeNull();
    // Put away twice keeps the first moment.
    expect((await api('PUT', '/business/setup', a.token, { dismissed: true })).body.body.dismissed_at).toBe(
      at,
    );

    const back = await api('PUT', '/business/setup', a.token, { dismissed: false });
    expect(back.body.body.dismissed_at).toBeNull();
    expect((await setupOf(a.token)).dismissed_at).toBeNull();
  });

  it('needs a signed-in member of a business', async () => {
    expect((await api('GET', '/business/setup')).status).toBe(401);
  });
});

describe('the set-up checklist outside sandbox mode', () => {
  let fake: FakeProvider;
  let t: TestApp;
  beforeAll(async () => {
    fake = await FakeProvider.start();
    t = await channelTestApp(fake, { SANDBOX_MODE: 'false' });
    fake.owners.twilio(TWILIO_SID, [TWILIO_TOKEN], { numbers: ['+61491570120'] });
  }, SETUP_TIMEOUT_MS);
  afterAll(async () => {
    await t.close();
    await fake.close();
  }, SETUP_TIMEOUT_MS);

  it('counts a connected Twilio number, not a number typed into a location, and leaves payments out without Stripe', async () => {
    const owner = await t.login(DEMO_LOGINS.northsideOwner);
    const api = apiClient(t);
    const me = await api('GET', '/user/me', owner);
    const location = (me.body.body.businesses as Json[]).find((b) => b.selected)!.locations[0].id as string;
    expect(
      (await api('PATCH', `/business/locations/${location}`, owner, { phone_number: '+61390001234' })).status,
    ).toBe(200);
    const before = (await api('GET', '/business/setup', owner)).body.body;
    expect(before.items.map((i: Json) => i.key)).not.toContain('payments');
    expect(before.items.find((i: Json) => i.key === 'number').done).toBe(false);
    expect(before.number).toBeNull();

    await connectAccount(t.app, owner, {
      location_id: location,
      provider: 'twilio',
      config: { account_sid: TWILIO_SID, auth_token: TWILIO_TOKEN, phone_number: '+61491570120' },
    });
    const after = (await api('GET', '/business/setup', owner)).body.body;
    expect(after.items.find((i: Json) => i.key === 'number').done).toBe(true);
    // The location's own number is the one customers text once Twilio answers it.
    expect(after.number).toMatchObject({ phone: '+61390001234', location_id: location, sandbox: false });
  });
});
