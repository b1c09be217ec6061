import { businesses, customers, enquiries, messages } from '@switchboard/db';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  DEMO_LOGINS,
  eventually,
  inbound,
  selectedLocation,
  type TestApp,
} from '../../test/helpers.ts';
import { receiveInbound } from './inbound.ts';
import { sweepQueuedMessages } from './sending.ts';

type Msg = {
  id: string;
  status: string;
  direction: string;
  message: string;
  client_id: string | null;
  team_user: { full_name: string } | null;
  call_summary_status: string | null;
  call_transcription_status: string | null;
  meta: { subject?: string };
  error: string | null;
};

describe('messages in and out', () => {
  let t: TestApp;
  let owner: string;
  let staff1: string;
  let staff2: string;
  let loc: string;
  let businessId: string;

  const thread = async (enquiryId: string, query = '', token = owner) => {
    const res = await t.request({
      method: 'GET',
      url: `/api/v1/enquiries/${enquiryId}/messages${query}`,
      token,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().body as { items: Msg[]; has_more: boolean };
  };
  const send = (enquiryId: string, payload: object, token = staff1) =>
    t.request({ method: 'POST', url: `/api/v1/enquiries/${enquiryId}/messages`, token, payload });

  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.login(DEMO_LOGINS.owner);
    staff1 = await t.login(DEMO_LOGINS.staff1);
    staff2 = await t.login(DEMO_LOGINS.staff2);
    loc = await selectedLocation(t, owner);
    const [b] = await t.database.db
      .select()
      .from(businesses)
      .where(eq(businesses.name, 'Harbourside Dental'));
    businessId = b!.id;
  });
  afterAll(() => t.close());

  it('stores a reply as queued with the sender, then the job sends it and the sandbox delivers it', async () => {
    const { enquiry_id } = await inbound(t, owner, {
      location_id: loc,
      from: { phone: '+61491570011', name: 'Alex' },
      message: 'Can I book?',
    });
    const res = await send(enquiry_id, { message: 'Yes, what time suits?', client_id: 'c-1' });
    expect(res.statusCode, res.body).toBe(200);
    const sent = res.json().body as Msg;
    expect(sent).toMatchObject({
      status: 'queued',
      direction: 'out',
      client_id: 'c-1',
      team_user: { full_name: 'Sam Nguyen' },
    });
    await eventually(async () =>
      (await thread(enquiry_id)).items.find((m) => m.id === sent.id && m.status === 'delivered'),
    );
    const { items } = await thread(enquiry_id);
    expect(items.map((m) => [m.direction, m.message])).toEqual([
      ['in', 'Can I book?'],
      ['out', 'Yes, what time suits?'],
    ]);

    // The same send again (its answer was lost on the way back): the stored message answers, nothing is
    // stored or sent twice.
    const again = await send(enquiry_id, { message: 'Yes, what time suits?', client_id: 'c-1' });
    expect(again.statusCode).toBe(200);
    expect(again.json().body.id).toBe(sent.id);
    expect((await thread(enquiry_id)).items).toHaveLength(2);
  });

  it('pages the thread newest page first, oldest to newest within a page', async () => {
    const { enquiry_id } = await inbound(t, owner, {
      location_id: loc,
      from: { phone: '+61491570012' },
      message: 'm1',
    });
    for (const m of ['m2', 'm3', 'm4', 'm5'])
      await inbound(t, owner, { location_id: loc, from: { phone: '+61491570012' }, message: m });
    const first = await thread(enquiry_id, '?page_size=2');
    expect(first.items.map((m) => m.message)).toEqual(['m4', 'm5']);
    expect(first.has_more).toBe(true);
    expect((await thread(enquiry_id, '?page_size=2&page=3')).items.map((m) => m.message)).toEqual(['m1']);
  });

  it('starts an email as queued with call summary and transcription not_started, needing a subject', async () => {
    const { enquiry_id } = await inbound(t, owner, {
      channel: 'email',
      location_id: loc,
      from: { email: 'kim@example.com' },
      message: 'Hello',
      subject: 'Booking',
    });
    const res = await send(enquiry_id, { message: 'Hi Kim', meta: { subject: 'Re: Booking' } });
    expect(res.json().body).toMatchObject({
      status: 'queued',
      call_summary_status: 'not_started',
      call_transcription_status: 'not_started',
      meta: { subject: 'Re: Booking' },
    });
  });

  it('starts a new conversation with a contact, creating the customer and an enquiry assigned to the sender', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/messages',
      token: staff2,
      payload: { channel: 'sms', phone: '0491 570 013', name: 'New Person', message: 'Your crown is ready' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const { enquiry_id } = res.json().body;
    const enquiry = (
      await t.request({ method: 'GET', url: `/api/v1/enquiries/${enquiry_id}`, token: owner })
    ).json().body;
    expect(enquiry).toMatchObject({
      customer: { name: 'New Person', phone: '+61491570013' },
      channel: 'sms',
      status: 'open',
    });
    expect(enquiry.assigned_to).toBeTruthy();
    const bad = await t.request({
      method: 'POST',
      url: '/api/v1/messages',
      token: staff2,
      payload: { channel: 'sms', phone: '12', message: 'x' },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().message).toMatch(/not a valid phone number/);
    const noSubject = await t.request({
      method: 'POST',
      url: '/api/v1/messages',
      token: staff2,
      payload: { channel: 'email', email: 'a@b.co', message: 'x' },
    });
    expect(noSubject.statusCode).toBe(422);
  });

  it('refuses sends over the daily limit with 429 and queues nothing; a new day starts again', async () => {
    const { enquiry_id } = await inbound(t, owner, {
      location_id: loc,
      from: { phone: '+61491570014' },
      message: 'limit?',
    });
    await t.database.db
      .update(businesses)
      .set({ message_limit: 2, messages_sent_today: 0, messages_count_day: null })
      .where(eq(businesses.id, businessId));
    expect((await send(enquiry_id, { message: 'one' })).statusCode).toBe(200);
    expect((await send(enquiry_id, { message: 'two' })).statusCode).toBe(200);
    const over = await send(enquiry_id, { message: 'three' });
    expect(over.statusCode).toBe(429);
    expect(over.json()).toMatchObject({ code: 'message_limit_reached' });
    expect(over.json().message).toMatch(/limit of 2 messages/);
    expect((await thread(enquiry_id)).items.map((m) => m.message)).toEqual(['limit?', 'one', 'two']);

    await t.database.db.execute(
      sql`update businesses set messages_count_day = messages_count_day - 1 where id = ${businessId}::uuid`,
    );
    expect((await send(enquiry_id, { message: 'next day' })).statusCode).toBe(200);
    const [b] = await t.database.db.select().from(businesses).where(eq(businesses.id, businessId));
    expect(b!.messages_sent_today).toBe(1);
    await t.database.db.update(businesses).set({ message_limit: 500 }).where(eq(businesses.id, businessId));
  });

  it('refuses empty and malformed sends with a message, storing nothing', async () => {
    const { enquiry_id } = await inbound(t, owner, {
      location_id: loc,
      from: { phone: '+61491570015' },
      message: 'hello',
    });
    const cases = [
      { payload: { message: '   ' }, status: 422 },
      { payload: { message: 5 }, status: 400 },
      { payload: { message: 'x', attachments: ['not-a-uuid'] }, status: 400 },
      { payload: { message: 'x', attachments: ['0190f0e0-0000-7000-8000-000000000000'] }, status: 422 },
      { payload: { message: 'x', unknown: true }, status: 400 },
      { payload: { message: 'x'.repeat(10_001) }, status: 400 },
    ];
    for (const c of cases) {
      const res = await send(enquiry_id, c.payload);
      expect(res.statusCode, JSON.stringify(c.payload).slice(0, 80)).toBe(c.status);
      expect(res.json().message).toBeTruthy();
    }
    expect((await thread(enquiry_id)).items).toHaveLength(1);
  });

  it('keeps a draft per user that survives until sent', async () => {
    const { enquiry_id } = await inbound(t, owner, {
      location_id: loc,
      from: { phone: '+61491570016' },
      message: 'draft me',
    });
    const put = await t.request({
      method: 'PUT',
      url: `/api/v1/enquiries/${enquiry_id}/draft`,
      token: staff1,
      payload: { message: 'Half-written' },
    });
    expect(put.statusCode, put.body).toBe(200);
    const mine = await t.request({
      method: 'GET',
      url: `/api/v1/enquiries/${enquiry_id}/draft`,
      token: staff1,
    });
    expect(mine.json().body.message).toBe('Half-written');
    const theirs = await t.request({
      method: 'GET',
      url: `/api/v1/enquiries/${enquiry_id}/draft`,
      token: staff2,
    });
    expect(theirs.json().body).toBeNull();
    await send(enquiry_id, { message: 'Sent now' });
    expect(
      (await t.request({ method: 'GET', url: `/api/v1/enquiries/${enquiry_id}/draft`, token: staff1 })).json()
        .body,
    ).toBeNull();
  });

  it('stores a repeated provider delivery once', async () => {
    const inboundMessage = {
      provider: 'sandbox',
      provider_message_id: 'dup-123',
      channel: 'sms',
      location_id: loc,
      from: { phone: '+61491570017' },
      message: 'once only',
    };
    const first = await receiveInbound(t.app, inboundMessage);
    const second = await receiveInbound(t.app, inboundMessage);
    expect(second.duplicate).toBe(true);
    expect(second.message.id).toBe(first.message.id);
    const rows = await t.database.db
      .select()
      .from(messages)
      .where(eq(messages.provider_message_id, 'dup-123'));
    expect(rows).toHaveLength(1);
  });

  it('sends a message left queued without a job (a crash before enqueueing) once re-queued', async () => {
    const { enquiry_id } = await inbound(t, owner, {
      location_id: loc,
      from: { phone: '+61491570018' },
      message: 'hi',
    });
    const [e] = await t.database.db.select().from(enquiries).where(eq(enquiries.id, enquiry_id));
    const [c] = await t.database.db.select().from(customers).where(eq(customers.id, e!.customer_id));
    const [stuck] = await t.database.db
      .insert(messages)
      .values({
        business_id: businessId,
        enquiry_id,
        customer_id: c!.id,
        channel: 'sms',
        direction: 'out',
        message: 'left behind',
        status: 'queued',
        created_at: new Date(Date.now() - 120_000),
      })
      .returning();
    expect(await sweepQueuedMessages(t.app)).toBeGreaterThanOrEqual(1);
    await eventually(async () => {
      const [m] = await t.database.db.select().from(messages).where(eq(messages.id, stuck!.id));
      return m!.status !== 'queued' && m;
    });
  });
});
