import { randomUUID } from 'node:crypto';
import { businesses, locations, users } from '@switchboard/db';
import { eq } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  DEMO_LOGINS,
  eventually,
  listen,
  openSocket,
  selectedLocation,
  type TestApp,
} from '../../test/helpers.ts';
import { attribute } from './attribution.ts';
import { signVisitorToken } from './token.ts';

type VisitorMessage = {
  id: string;
  from: 'visitor' | 'staff';
  text: string;
  client_id: string | null;
  agent?: string | null;
  agent_avatar?: string | null;
};
type Ack = { ok: boolean; error?: string; message?: VisitorMessage; messages?: VisitorMessage[] };
type EnquiryItem = {
  id: string;
  channel: string;
  source: string | null;
  medium: string | null;
  campaign: string | null;
  customer: { name: string | null };
};

describe('website chat widget', () => {
  let t: TestApp;
  let url: string;
  let owner: string;
  let loc: string;
  const sockets: Socket[] = [];

  const open = (token: string) => openSocket(`${url}/visitor`, token, sockets);
  const emit = (socket: Socket, event: string, ...args: unknown[]) =>
    socket.timeout(15_000).emitWithAck(event, ...args) as Promise<Ack>;
  // Each chat from its own visitor address: the per-network limit on new chats is tested on its own below.
  let visitorAddress = 0;
  const session = async (body: object, locationId = loc) => {
    const res = await t.request({
      method: 'POST',
      url: `/widget-api/locations/${locationId}/sessions`,
      payload: body,
      remoteAddress: `198.51.100.${++visitorAddress}`,
    });
    return res;
  };
  const startChat = async (page: object, name = 'Wendy Widget') => {
    const res = await session({ name, email: 'wendy@example.com', page });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().visitor_token as string;
  };
  const enquiriesOf = async () => {
    const res = await t.request({
      method: 'GET',
      url: '/api/v1/enquiries?channels=widget&page_size=100',
      token: owner,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().body.items as EnquiryItem[];
  };

  beforeAll(async () => {
    t = await createTestApp();
    url = await listen(t);
    owner = await t.login(DEMO_LOGINS.owner);
    loc = await selectedLocation(t, owner);
  });
  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await t.close();
  });

  it('serves the config with defaults, the location settings, and 404 for an unknown location', async () => {
    const res = await t.request({ method: 'GET', url: `/widget-api/locations/${loc}/config` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      color: '#1E75FF',
      logo: null,
      fields: { name: { ask: true, required: true }, phone: { ask: true, required: false } },
    });
    // The business's logo shows in the chat's header.
    const [{ business_id }] = (await t.database.db
      .select({ business_id: locations.business_id })
      .from(locations)
      .where(eq(locations.id, loc))) as [{ business_id: string }];
    await t.database.db
      .update(businesses)
      .set({ image: '/uploads/logo-id/content' })
      .where(eq(businesses.id, business_id));
    const branded = (await t.request({ method: 'GET', url: `/widget-api/locations/${loc}/config` })).json();
    expect(branded.logo).toBe('/uploads/logo-id/content');
    await t.database.db.update(businesses).set({ image: null }).where(eq(businesses.id, business_id));
    await t.database.db
      .update(locations)
      .set({ widget_settings: { color: '#112233', greeting: 'Ahoy', fields: { phone: { ask: false } } } })
      .where(eq(locations.id, loc));
    const custom = (await t.request({ method: 'GET', url: `/widget-api/locations/${loc}/config` })).json();
    expect(custom).toMatchObject({ color: '#112233', greeting: 'Ahoy', fields: { phone: { ask: false } } });
    await t.database.db.update(locations).set({ widget_settings: null }).where(eq(locations.id, loc));

    for (const id of [randomUUID(), 'not-a-uuid']) {
      expect((await t.request({ method: 'GET', url: `/widget-api/locations/${id}/config` })).statusCode).toBe(
        404,
      );
      expect((await session({ name: 'X' }, id)).statusCode).toBe(404);
    }
  });

  it('tells visitors how soon the location replies, or that it is closed and when it opens, from its hours', async () => {
    const config = async () =>
      (await t.request({ method: 'GET', url: `/widget-api/locations/${loc}/config` })).json().availability;
    expect(await config()).toBe('We reply as soon as we can.');
    await t.database.db.update(locations).set({ reply_time: 'minutes' }).where(eq(locations.id, loc));
    expect(await config()).toBe('We usually reply within a few minutes.');

    // Closed today in Perth, open tomorrow from nine.
    const days = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
    const today = new Intl.DateTimeFormat('en-AU', { weekday: 'short', timeZone: 'Australia/Perth' })
      .format(new Date())
      .slice(0, 3)
      .toLowerCase();
    const tomorrow = days[(days.indexOf(today) + 1) % 7]!;
    const hours = Object.fromEntries(
      days.map((d) => [d, d === tomorrow ? [{ open: '09:00', close: '17:00' }] : []]),
    );
    await t.database.db
      .update(locations)
      .set({ opening_hours: hours, timezone: 'Australia/Perth' })
      .where(eq(locations.id, loc));
    expect(await config()).toBe(
      "We're closed now and open again tomorrow at 9 am. Leave a message and we'll reply then.",
    );
    await t.database.db
      .update(locations)
      .set({ opening_hours: null, reply_time: null, timezone: null })
      .where(eq(locations.id, loc));
  });

  it('asks for the required pre-chat fields', async () => {
    const res = await session({ email: 'a@example.com' });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('Please enter your name');
  });

  it('attributes the chat: utm first, then click ids, then the referrer, else direct', () => {
    expect(
      attribute({ utm_source: 'news', utm_medium: 'email', utm_campaign: 'spring', gclid: 'x' }),
    ).toEqual({
      source: 'news',
      medium: 'email',
      campaign: 'spring',
    });
    expect(attribute({ gclid: 'abc' })).toEqual({ source: 'google', medium: 'cpc' });
    expect(attribute({ fbclid: 'abc' })).toEqual({ source: 'facebook', medium: 'paid social' });
    expect(attribute({ msclkid: 'abc' })).toEqual({ source: 'bing', medium: 'cpc' });
    expect(attribute({ url: 'https://shop.test/a', referrer: 'https://www.search.test/q' })).toEqual({
      source: 'search.test',
      medium: 'referral',
    });
    expect(attribute({ url: 'https://shop.test/a', referrer: 'https://shop.test/b' })).toEqual({
      source: 'direct',
      medium: 'none',
    });
  });

  it('takes a visitor message into an enquiry, delivers the staff reply live, and keeps history on reload', async () => {
    const token = await startChat({
      url: 'https://dental.test/?utm_source=newsletter',
      utm_source: 'newsletter',
      utm_medium: 'email',
      utm_campaign: 'spring',
    });
    const visitor = await open(token);
    const received: VisitorMessage[] = [];
    visitor.on('message', (m: VisitorMessage) => received.push(m));

    const html = '<img src=x onerror=alert(1)> <b>Hi</b> & do you have a slot?';
    const ack = await emit(visitor, 'message', { text: html, client_id: 'c-1' });
    expect(ack).toMatchObject({ ok: true, message: { from: 'visitor', text: html, client_id: 'c-1' } });
    // A retried send is stored once.
    const again = await emit(visitor, 'message', { text: html, client_id: 'c-1' });
    expect(again.ok).toBe(true);

    const enquiry = (await enquiriesOf()).find((e) => e.customer.name === 'Wendy Widget');
    expect(enquiry).toMatchObject({
      channel: 'widget',
      source: 'newsletter',
      medium: 'email',
      campaign: 'spring',
    });
    const thread = async () => {
      const res = await t.request({
        method: 'GET',
        url: `/api/v1/enquiries/${enquiry!.id}/messages`,
        token: owner,
      });
      return res.json().body.items as { id: string; message: string; status: string; direction: string }[];
    };
    expect((await thread()).map((m) => [m.direction, m.message])).toEqual([['in', html]]);

    // Staff typing in the enquiry reaches the visitor.
    const typing: { typing: boolean; full_name: string }[] = [];
    visitor.on('typing', (e) => typing.push(e));
    t.app.events.emit('enquiry.typing', { enquiry_id: enquiry!.id, typing: true, full_name: 'Olivia Owner' });
    await eventually(async () => typing.find((e) => e.typing && e.full_name === 'Olivia Owner'));

    // The teammate's picture (My profile) goes with their reply.
    await t.database.db
      .update(users)
      .set({ avatar: '/uploads/olivia-face/content' })
      .where(eq(users.email, DEMO_LOGINS.owner));
    const reply = await t.request({
      method: 'POST',
      url: `/api/v1/enquiries/${enquiry!.id}/messages`,
      token: owner,
      payload: { message: 'Yes — 3pm <today>', client_id: 'staff-1' },
    });
    expect(reply.statusCode, reply.body).toBe(200);
    const sentId = reply.json().body.id as string;
    const live = await eventually(async () =>
      received.find((m) => m.from === 'staff' && m.text === 'Yes — 3pm <today>'),
    );
    // Signed with the teammate's first name only.
    expect(live.agent).toBe('Olivia');
    expect(live.agent_avatar).toBe('/uploads/olivia-face/content');
    await eventually(async () => (await thread()).find((m) => m.id === sentId && m.status === 'delivered'));

    visitor.disconnect();
    const reloaded = await open(token);
    const history = await emit(reloaded, 'history');
    expect(history.ok).toBe(true);
    expect(history.messages!.map((m) => [m.from, m.text, m.agent, m.agent_avatar])).toEqual([
      ['visitor', html, null, null],
      ['staff', 'Yes — 3pm <today>', 'Olivia', '/uploads/olivia-face/content'],
    ]);
    await t.database.db.update(users).set({ avatar: null }).where(eq(users.email, DEMO_LOGINS.owner));
  });

  it('attributes a Google Ads click and sends visitor typing to staff in the enquiry room', async () => {
    const token = await startChat(
      { url: 'https://dental.test/implants?gclid=abc&email=gary@example.com#book', gclid: 'abc' },
      'Gary Google',
    );
    const visitor = await open(token);
    expect((await emit(visitor, 'message', { text: 'Hello from an ad', client_id: 'g-1' })).ok).toBe(true);
    const enquiry = (await enquiriesOf()).find((e) => e.customer.name === 'Gary Google');
    expect(enquiry).toMatchObject({ channel: 'widget', source: 'google', medium: 'cpc' });
    // The customer's profile names the page the chat began on, without its query (it may hold personal data).
    const full = (
      await t.request({ method: 'GET', url: `/api/v1/enquiries/${enquiry!.id}`, token: owner })
    ).json().body;
    const profile = (
      await t.request({ method: 'GET', url: `/api/v1/customers/${full.customer_id}`, token: owner })
    ).json().body;
    expect(profile.first_seen).toMatchObject({
      channel: 'widget',
      source: 'google',
      medium: 'cpc',
      landing_page: 'https://dental.test/implants',
    });

    const staff = await openSocket(url, owner, sockets);
    expect(await staff.timeout(10_000).emitWithAck('enquiry.open', enquiry!.id)).toMatchObject({ ok: true });
    const seen: { enquiry_id: string; typing: boolean; full_name: string }[] = [];
    staff.on('typing', (e) => seen.push(e));
    visitor.emit('typing', { typing: true });
    await eventually(async () =>
      seen.find((e) => e.enquiry_id === enquiry!.id && e.typing && e.full_name === 'Gary Google'),
    );

    // And staff typing, through the staff socket, reaches the visitor.
    const visitorSaw: { typing: boolean; full_name: string }[] = [];
    visitor.on('typing', (e) => visitorSaw.push(e));
    staff.emit('typing', { enquiry_id: enquiry!.id, typing: true });
    await eventually(async () => visitorSaw.find((e) => e.typing && e.full_name.length > 0));
  });

  it('refuses a forged, tampered or missing token', async () => {
    const token = await startChat({});
    const [payload, sig] = token.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const tampered = `${Buffer.from(JSON.stringify({ ...claims, visitor_id: randomUUID() })).toString('base64url')}.${sig}`;
    const forged = signVisitorToken(Buffer.alloc(32, 7), { ...claims });
    for (const bad of [tampered, forged, 'nonsense', '']) {
      await expect(open(bad)).rejects.toThrow(/not valid/);
    }
  });

  it("limits messages per visitor to the location's setting, with a clear message", async () => {
    const limits = { chats_per_ip: 6, messages_per_visitor: 5, forms_per_ip: 10 };
    const put = await t.request({
      method: 'PUT',
      url: `/api/v1/business/locations/${loc}/limits`,
      token: owner,
      payload: limits,
    });
    expect(put.statusCode, put.body).toBe(200);
    const visitor = await open(await startChat({}, 'Chatty Cathy'));
    for (let i = 0; i < 5; i++) {
      expect((await emit(visitor, 'message', { text: `m${i}`, client_id: `r-${i}` })).ok).toBe(true);
    }
    const refused = await emit(visitor, 'message', { text: 'one more', client_id: 'r-5' });
    expect(refused.ok).toBe(false);
    expect(refused.error).toMatch(
      /^You are sending messages too quickly\. Try again in \d+ (seconds|minutes)\.$/,
    );
  });

  it('refuses an oversized message and an empty one', async () => {
    const visitor = await open(await startChat({}));
    const big = await emit(visitor, 'message', { text: 'x'.repeat(2001), client_id: 'big' });
    expect(big).toMatchObject({ ok: false, error: 'Messages can be at most 2000 characters.' });
    expect((await emit(visitor, 'message', { text: '   ', client_id: 'empty' })).ok).toBe(false);
    expect((await emit(visitor, 'message', { text: 'x'.repeat(2000), client_id: 'max' })).ok).toBe(true);
  });
});

describe('widget rate limits', () => {
  let t: TestApp;
  let loc: string;
  beforeAll(async () => {
    t = await createTestApp();
    loc = await selectedLocation(t, await t.login(DEMO_LOGINS.owner));
  });
  afterAll(() => t.close());

  it('limits new chats per IP with a clear message', async () => {
    const statuses: number[] = [];
    let last = '';
    for (let i = 0; i < 7; i++) {
      const res = await t.request({
        method: 'POST',
        url: `/widget-api/locations/${loc}/sessions`,
        payload: { name: `V${i}` },
        remoteAddress: '203.0.113.9',
      });
      statuses.push(res.statusCode);
      last = res.body;
    }
    // The default: 6 new chats per network per hour.
    expect(statuses.slice(0, 6).every((s) => s === 200)).toBe(true);
    expect(statuses[6]).toBe(429);
    expect(last).toContain('Too many chats started from your network');
  });
});
