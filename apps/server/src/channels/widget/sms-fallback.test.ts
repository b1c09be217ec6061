import { enquiries } from '@switchboard/db';
import type { VisitorMessage } from '@switchboard/shared';
import { eq } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  channelTestApp,
  connect,
  FakeProvider,
  messageById,
  postTwilio,
  SETUP_TIMEOUT_MS,
  SUITE_TIMEOUTS,
  TWILIO_SID,
  TWILIO_TOKEN,
} from '../../modules/channels/test-support.ts';
import { DEMO_LOGINS, eventually, getMe, listen, openSocket, type TestApp } from '../../test/helpers.ts';

const MESSAGES_PATH = `/2010-04-01/Accounts/${TWILIO_SID}/Messages.json`;

/**
 * A website chat continues by text message: replies show in the open chat, go by SMS through the location's
 * Twilio number once the visitor has left it, and the visitor's texts continue the same enquiry.
 */
describe('website chat replies fall back to SMS', SUITE_TIMEOUTS, () => {
  let fake: FakeProvider;
  let t: TestApp;
  let url: string;
  let owner: string;
  let withSms: string;
  let withoutSms: string;
  const sockets: Socket[] = [];
  let n = 0;

  beforeAll(async () => {
    fake = await FakeProvider.start();
    // Away at once: no minutes to wait in a test. Outside sandbox mode, so a location without an SMS
    // channel really has none.
    t = await channelTestApp(fake, { WIDGET_SMS_AFTER_MINUTES: '0', SANDBOX_MODE: 'false' });
    url = await listen(t);
    owner = await t.login(DEMO_LOGINS.owner);
    const business = (await getMe(t, owner)).businesses.find((b) => b.selected)!;
    [withSms, withoutSms] = business.locations.map((l) => l.id) as [string, string];
    await connect(t, owner, {
      location_id: withSms,
      provider: 'twilio',
      config: { account_sid: TWILIO_SID, auth_token: TWILIO_TOKEN, phone_number: '+15555550100' },
    });
  }, SETUP_TIMEOUT_MS);
  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await t.close();
    await fake.close();
  }, SETUP_TIMEOUT_MS);

  /** A visitor starts a chat and writes once; answers their socket and enquiry. */
  async function visitor(location: string, fields: { name: string; phone?: string }) {
    const res = await t.request({
      method: 'POST',
      url: `/widget-api/locations/${location}/sessions`,
      payload: { ...fields, page: { url: 'https://harbourside.test/' } },
      remoteAddress: `198.51.100.${++n}`,
    });
    expect(res.statusCode, res.body).toBe(200);
    const socket = await openSocket(`${url}/visitor`, res.json().visitor_token, sockets);
    const ack = (await socket
      .timeout(15_000)
      .emitWithAck('message', { text: 'Hello?', client_id: `c${n}` })) as {
      ok: boolean;
    };
    expect(ack.ok).toBe(true);
    const list = await t.request({
      method: 'GET',
      url: `/api/v1/enquiries?channels=widget&page_size=100&location_id=${location}`,
      token: owner,
    });
    const enquiry = (list.json().body.items as { id: string; customer: { name: string } }[]).find(
      (e) => e.customer.name === fields.name,
    )!;
    return { socket, enquiryId: enquiry.id };
  }
  const route = async (id: string) =>
    (await t.request({ method: 'GET', url: `/api/v1/enquiries/${id}/reply-route`, token: owner })).json()
      .body;
  const reply = async (id: string, message: string) => {
    const res = await t.request({
      method: 'POST',
      url: `/api/v1/enquiries/${id}/messages`,
      token: owner,
      payload: { message },
    });
    expect(res.statusCode, res.body).toBe(200);
    const sent = res.json().body.id as string;
    return eventually(async () => {
      const m = await messageById(t, sent);
      return m.status !== 'queued' && m;
    }, 40_000);
  };
  const leave = async (socket: Socket, enquiryId: string) => {
    socket.disconnect();
    await eventually(async () => {
      const [e] = await t.database.db.select().from(enquiries).where(eq(enquiries.id, enquiryId));
      return typeof e?.meta.visitor_seen_at === 'string';
    });
  };

  it('shows a reply in the open chat, texts it once the visitor has left, and their text continues the enquiry', async () => {
    const { socket, enquiryId } = await visitor(withSms, { name: 'Sol Texter', phone: '0491 570 777' });
    expect(await route(enquiryId)).toEqual({
      route: 'chat',
      detail: 'The visitor has the chat open: your reply shows there at once.',
    });
    const shown = new Promise<VisitorMessage>((resolve) => socket.once('message', resolve));
    const inChat = await reply(enquiryId, 'Hi Sol, how can we help?');
    expect(inChat).toMatchObject({
      status: 'delivered',
      provider: 'widget',
      meta: { delivered_via: 'chat' },
    });
    expect((await shown).text).toBe('Hi Sol, how can we help?');
    expect(fake.received('POST', MESSAGES_PATH)).toHaveLength(0);

    await leave(socket, enquiryId);
    expect(await route(enquiryId)).toEqual({
      route: 'sms',
      detail: 'The visitor has left the chat: your reply goes by SMS to +61491570777.',
    });
    fake.on('POST', MESSAGES_PATH, {
      status: 201,
      json: { sid: 'SMfa11bac0000000000000000000000001', status: 'queued' },
    });
    const bySms = await reply(enquiryId, 'We have a 3pm slot tomorrow.');
    expect(bySms).toMatchObject({
      status: 'sent',
      provider: 'twilio',
      provider_message_id: 'SMfa11bac0000000000000000000000001',
      channel: 'widget',
      meta: { delivered_via: 'sms', sms_to: '+61491570777' },
    });
    const [sent] = fake.received('POST', MESSAGES_PATH);
    expect(Object.fromEntries(sent!.form())).toMatchObject({
      To: '+61491570777',
      From: '+15555550100',
      Body: 'We have a 3pm slot tomorrow.',
    });

    // Their SMS answer lands in the same enquiry, stored as the text it is.
    const texted = await postTwilio(t, '/webhooks/twilio/messaging', {
      AccountSid: TWILIO_SID,
      To: '+15555550100',
      From: '+61491570777',
      Body: '3pm is perfect',
      MessageSid: 'SMfa11bac0000000000000000000000002',
      NumMedia: '0',
      SmsStatus: 'received',
      ApiVersion: '2010-04-01',
    });
    expect(texted.statusCode, texted.body).toBe(200);
    const thread = (
      await t.request({ method: 'GET', url: `/api/v1/enquiries/${enquiryId}/messages`, token: owner })
    ).json().body.items as { message: string; channel: string; direction: string }[];
    expect(thread.map((m) => [m.direction, m.channel, m.message])).toEqual([
      ['in', 'widget', 'Hello?'],
      ['out', 'widget', 'Hi Sol, how can we help?'],
      ['out', 'widget', 'We have a 3pm slot tomorrow.'],
      ['in', 'sms', '3pm is perfect'],
    ]);
  });

  it('keeps the reply waiting in the chat, and says why, without a phone or without an SMS channel', async () => {
    const before = fake.received('POST', MESSAGES_PATH).length;
    const noPhone = await visitor(withSms, { name: 'Nia Nophone' });
    await leave(noPhone.socket, noPhone.enquiryId);
    expect(await route(noPhone.enquiryId)).toEqual({
      route: 'waiting',
      detail:
        'The visitor has left the chat and gave no phone number: your reply waits in the chat until they return.',
    });
    expect(await reply(noPhone.enquiryId, 'Still there?')).toMatchObject({
      status: 'sent',
      provider: 'widget',
      meta: { delivered_via: 'chat' },
    });

    const noChannel = await visitor(withoutSms, { name: 'Cal Nochannel', phone: '0491 570 778' });
    await leave(noChannel.socket, noChannel.enquiryId);
    expect((await route(noChannel.enquiryId)).detail).toBe(
      'The visitor has left the chat and this location has no SMS channel: your reply waits in the chat until they return.',
    );
    expect(await reply(noChannel.enquiryId, 'Back soon?')).toMatchObject({
      status: 'sent',
      provider: 'widget',
    });
    expect(fake.received('POST', MESSAGES_PATH)).toHaveLength(before);

    // Another business's enquiry is not found.
    const north = await t.login(DEMO_LOGINS.northsideOwner);
    const foreign = await t.request({
      method: 'GET',
      url: `/api/v1/enquiries/${noPhone.enquiryId}/reply-route`,
      token: north,
    });
    expect(foreign.statusCode).toBe(404);
  });
});
