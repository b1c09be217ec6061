import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { uploads } from '@switchboard/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageSend } from '../../jobs/definitions/message-send.ts';
import { TransientSendError } from '../../lib/provider-errors.ts';
import { providerFetch } from '../../lib/provider-http.ts';
import { saveUpload } from '../../lib/storage.ts';
import { signedMediaUrl } from '../../modules/channels/media-url.ts';
import {
  type ChannelSuite,
  connect,
  countMessages,
  customerById,
  enquiryOf,
  type FakeProvider,
  fixtureJson,
  messageById,
  messagesByProviderId,
  messageWithMedia,
  PUBLIC_URL,
  postTwilio,
  SETUP_TIMEOUT_MS,
  SUITE_TIMEOUTS,
  startChannelSuite,
  TWILIO_SID,
  TWILIO_TOKEN,
  type TwilioEnvelope,
  twilioSignature,
} from '../../modules/channels/test-support.ts';
import { receiveInbound } from '../../modules/messages/inbound.ts';
import { eventually, jobsSettled, type TestApp } from '../../test/helpers.ts';
import { parseForm, verifyTwilioSignature } from './signature.ts';

const SERVICE_SID = 'MGcccccccccccccccccccccccccccccccc';
const MESSAGES_PATH = `/2010-04-01/Accounts/${TWILIO_SID}/Messages.json`;

describe('X-Twilio-Signature', () => {
  it('matches the worked example from the Twilio docs', () => {
    const f = fixtureJson<TwilioEnvelope>('twilio-messaging/signature-docs-worked-example.json');
    expect(
      verifyTwilioSignature({
        authToken: f.signing.authToken,
        signature: f.request.headers['X-Twilio-Signature']!,
        url: f.request.url,
        params: parseForm(f.request.body),
      }),
    ).toBe(true);
  });

  it('covers the query string, non-ASCII values and every parameter; a default port is accepted', () => {
    const f = fixtureJson<TwilioEnvelope>('twilio-messaging/inbound-sms.json');
    const params = parseForm(f.request.body);
    expect(params.Body).toBe('Hi! Can I move my 3pm booking to 4:30? Thanks 😊 & cheers');
    const check = (url: string, p = params) =>
      verifyTwilioSignature({
        authToken: TWILIO_TOKEN,
        signature: f.signing.expectedXTwilioSignature,
        url,
        params: p,
      });
    expect(check(f.request.url)).toBe(true);
    expect(check('https://app.example.com:443/webhooks/twilio/messaging?tenant=acme')).toBe(true);
    expect(check('https://app.example.com/webhooks/twilio/messaging')).toBe(false);
    expect(check(f.request.url, { ...params, Body: 'Hi! Can I move my 3pm booking to 5:30?' })).toBe(false);
    expect(check(f.request.url, { ...params, Extra: 'added' })).toBe(false);
  });

  it('checks a JSON body through bodySHA256 (twilio-node test vector)', () => {
    const body = '{"property": "value", "boolean": true}';
    const url =
      'https://mycompany.com/myapp.php?foo=1&bar=2&bodySHA256=0a1ff7634d9ab3b95db5c9a2dfe9416e41502b283a80c7cf19632632f96e6620';
    const args = { authToken: '12345', url, params: {}, json: true };
    expect(verifyTwilioSignature({ ...args, signature: 'a9nBmqA0ju/hNViExpshrM61xv4=', rawBody: body })).toBe(
      true,
    );
    expect(
      verifyTwilioSignature({ ...args, signature: 'a9nBmqA0ju/hNViExpshrM61xv4=', rawBody: `${body} ` }),
    ).toBe(false);
  });
});

describe('provider calls that do not answer', () => {
  it('time out as transient (retried), never hang', async () => {
    const server = createServer((_req, res) => setTimeout(() => res.end('late'), 1000));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    await expect(providerFetch('Twilio', url, { timeoutMs: 100 })).rejects.toThrow(TransientSendError);
    await expect(providerFetch('Twilio', url, { timeoutMs: 100 })).rejects.toThrow(
      'Twilio did not answer within 0.1 s.',
    );
    server.closeAllConnections();
    server.close();
  });
});

describe('Twilio SMS and MMS', SUITE_TIMEOUTS, () => {
  let suite: ChannelSuite;
  let fake: FakeProvider;
  let t: TestApp;
  let owner: string;
  let staff: string;
  let loc1: string;
  let loc2: string;
  let smsEnquiry: string;

  const send = (enquiryId: string, payload: object) =>
    t.request({ method: 'POST', url: `/api/v1/enquiries/${enquiryId}/messages`, token: staff, payload });
  const settled = (id: string, timeout = 40_000) =>
    eventually(async () => {
      const m = await messageById(t, id);
      return m.status !== 'queued' && m;
    }, timeout);
  const postFixture = (
    f: TwilioEnvelope,
    overrides: { url?: string; body?: string; signature?: string } = {},
  ) => {
    const url = new URL(overrides.url ?? f.request.url);
    return t.request({
      method: 'POST',
      url: `${url.pathname}${url.search}`,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': overrides.signature ?? f.request.headers['X-Twilio-Signature']!,
      },
      payload: overrides.body ?? f.request.body,
    });
  };
  const inboundParams = (p: Record<string, string>) => ({
    AccountSid: TWILIO_SID,
    To: '+15555550100',
    NumMedia: '0',
    ApiVersion: '2010-04-01',
    SmsStatus: 'received',
    ...p,
  });

  beforeAll(async () => {
    suite = await startChannelSuite();
    ({ fake, t, owner, staff } = suite);
    [loc1, loc2] = suite.locations;
    await connect(t, owner, {
      location_id: loc1,
      provider: 'twilio',
      config: { account_sid: TWILIO_SID, auth_token: TWILIO_TOKEN, phone_number: '+15555550100' },
    });
    await connect(t, owner, {
      location_id: loc2,
      provider: 'twilio',
      config: { account_sid: TWILIO_SID, auth_token: TWILIO_TOKEN, messaging_service_sid: SERVICE_SID },
    });
  }, SETUP_TIMEOUT_MS);
  afterAll(() => suite.close(), SETUP_TIMEOUT_MS);

  it('accepts the inbound SMS fixture (query string in the URL, emoji and & in the body) and stores it', async () => {
    const f = fixtureJson<TwilioEnvelope>('twilio-messaging/inbound-sms.json');
    const res = await postFixture(f);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('text/xml');
    expect(res.body).toBe('<?xml version="1.0" encoding="UTF-8"?><Response></Response>');
    const [m] = await messagesByProviderId(t, 'twilio', 'SM11111111111111111111111111111111');
    expect(m).toMatchObject({
      direction: 'in',
      channel: 'sms',
      status: 'received',
      message: 'Hi! Can I move my 3pm booking to 4:30? Thanks 😊 & cheers',
      meta: { from: '+15555550123', to: '+15555550100' },
    });
    expect((await customerById(t, m!.customer_id)).phone).toBe('+15555550123');
    const e = await enquiryOf(t, m!.enquiry_id);
    expect(e).toMatchObject({ location_id: loc1, channel: 'sms', status: 'open' });
    smsEnquiry = e.id;
  });

  it('stores a repeated delivery once and still answers 200', async () => {
    const f = fixtureJson<TwilioEnvelope>('twilio-messaging/inbound-sms.json');
    const before = await countMessages(t);
    expect((await postFixture(f)).statusCode).toBe(200);
    expect(await countMessages(t)).toBe(before);
    expect(await messagesByProviderId(t, 'twilio', 'SM11111111111111111111111111111111')).toHaveLength(1);
  });

  it('refuses a missing, wrong or replayed-elsewhere signature with 403 and stores nothing', async () => {
    const f = fixtureJson<TwilioEnvelope>('twilio-messaging/inbound-sms.json');
    const before = await countMessages(t);
    const other = f.request.body.replace(
      'SM11111111111111111111111111111111',
      'SM22222222222222222222222222222222',
    );
    // The signed URL had ?tenant=acme: the same signature on the bare path must fail.
    const noQuery = await postFixture(f, {
      url: 'https://app.example.com/webhooks/twilio/messaging',
      body: other,
    });
    expect(noQuery.statusCode).toBe(403);
    expect(noQuery.json()).toEqual({
      message: 'The webhook signature is missing or does not match.',
      code: 'forbidden',
    });
    const tampered = await postFixture(f, { body: other });
    expect(tampered.statusCode).toBe(403);
    const unsigned = await postTwilio(
      t,
      '/webhooks/twilio/messaging',
      inboundParams({ MessageSid: 'SM33', From: '+15555550123', Body: 'hi' }),
      { signature: null },
    );
    expect(unsigned.statusCode).toBe(403);
    const wrongToken = await postTwilio(
      t,
      '/webhooks/twilio/messaging',
      inboundParams({ MessageSid: 'SM34', From: '+15555550123', Body: 'hi' }),
      { token: 'not-the-auth-token' },
    );
    expect(wrongToken.statusCode).toBe(403);
    expect(await countMessages(t)).toBe(before);
  });

  it('answers 200 and stores nothing for a number no account owns; 400 for a signed body missing fields', async () => {
    const before = await countMessages(t);
    const unknown = await postTwilio(
      t,
      '/webhooks/twilio/messaging',
      inboundParams({ To: '+15555550199', MessageSid: 'SM40', From: '+15555550123', Body: 'hello?' }),
    );
    expect(unknown.statusCode).toBe(200);
    const malformed = await postTwilio(t, '/webhooks/twilio/messaging', {
      AccountSid: TWILIO_SID,
      To: '+15555550100',
    });
    expect(malformed.statusCode).toBe(400);
    const empty = await postTwilio(t, '/webhooks/twilio/messaging', {});
    expect(empty.statusCode).toBe(400);
    expect(await countMessages(t)).toBe(before);
  });

  it('downloads MMS media with the account credentials into uploads (Messaging Service number)', async () => {
    const mediaBase = `/2010-04-01/Accounts/${TWILIO_SID}/Messages/MM0123456789abcdef0123456789abcdef/Media`;
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4]);
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 5, 6, 7]);
    fake
      .on('GET', `${mediaBase}/ME00000000000000000000000000000000`, {
        // A slow download: the webhook has long answered before it ends.
        delayMs: 1500,
        body: jpeg,
        headers: { 'content-type': 'image/jpeg' },
      })
      .on('GET', `${mediaBase}/ME11111111111111111111111111111111`, {
        body: png,
        headers: { 'content-type': 'image/png' },
      });
    const params = inboundParams({
      To: '+61491570110',
      From: '+61491570006',
      MessageSid: 'MM0123456789abcdef0123456789abcdef',
      SmsMessageSid: 'MM0123456789abcdef0123456789abcdef',
      MessagingServiceSid: SERVICE_SID,
      Body: 'Photos of the damage',
      NumMedia: '2',
      MediaUrl0: `${fake.url}${mediaBase}/ME00000000000000000000000000000000`,
      MediaContentType0: 'image/jpeg',
      MediaUrl1: `${fake.url}${mediaBase}/ME11111111111111111111111111111111`,
      MediaContentType1: 'image/png',
      FromCity: '',
      FromState: '',
      ToCity: '',
    });
    const res = await postTwilio(t, '/webhooks/twilio/messaging', params);
    expect(res.statusCode, res.body).toBe(200);
    // Twilio sends it again while the media is still downloading: stored once, its files attached once.
    expect((await postTwilio(t, '/webhooks/twilio/messaging', params)).statusCode).toBe(200);
    // Stored at once, waiting for its media; the download job attaches the files after the answer.
    const [stored] = await messagesByProviderId(t, 'twilio', 'MM0123456789abcdef0123456789abcdef');
    expect(stored).toMatchObject({
      channel: 'mms',
      message: 'Photos of the damage',
      meta: { media_pending: 2 },
    });
    expect((await enquiryOf(t, stored!.enquiry_id)).last_message_preview).toBe('Photos of the damage');
    const m = await messageWithMedia(t, 'twilio', 'MM0123456789abcdef0123456789abcdef');
    expect((await enquiryOf(t, m!.enquiry_id)).location_id).toBe(loc2);
    expect(m!.attachments.map((a) => [a.name, a.content_type, a.size])).toEqual([
      ['image-1.jpg', 'image/jpeg', jpeg.length],
      ['image-2.png', 'image/png', png.length],
    ]);
    const basic = `Basic ${Buffer.from(`${TWILIO_SID}:${TWILIO_TOKEN}`).toString('base64')}`;
    expect(fake.received('GET', new RegExp(`^${mediaBase}`)).map((r) => r.headers.authorization)).toEqual([
      basic,
      basic,
    ]);
    const rows = await t.database.db.select().from(uploads).where(eq(uploads.id, m!.attachments[0]!.id));
    expect(rows[0]).toMatchObject({ business_id: m!.business_id, size: jpeg.length });

    // A text from the same number joins the open MMS thread; media that cannot be fetched is noted, not lost.
    fake.on('GET', `${mediaBase}/MEgone`, { status: 404, body: 'gone' });
    await postTwilio(
      t,
      '/webhooks/twilio/messaging',
      inboundParams({
        To: '+61491570110',
        From: '+61491570006',
        MessagingServiceSid: SERVICE_SID,
        MessageSid: 'MM2',
        Body: 'and one more',
        NumMedia: '1',
        MediaUrl0: `${fake.url}${mediaBase}/MEgone`,
        MediaContentType0: 'image/jpeg',
      }),
    );
    const second = await messageWithMedia(t, 'twilio', 'MM2');
    expect(second).toMatchObject({
      enquiry_id: m!.enquiry_id,
      message: 'and one more\n(An attachment could not be downloaded from the provider.)',
      attachments: [],
      meta: { media_failed: 1 },
    });
  });

  it('never fetches MMS media from the server itself or its network, however the address is spelt', async () => {
    // What an attacker who signs their own webhook would point at: a service only reachable from inside.
    const inside: string[] = [];
    const internal = createServer((req, res) => {
      inside.push(req.url ?? '');
      res.end('{"status":"ok","secret":true}');
    }).listen(0, '127.0.0.1');
    await new Promise((r) => internal.once('listening', r));
    const port = (internal.address() as AddressInfo).port;
    fake.on('GET', '/hop', { status: 302, headers: { location: `http://127.0.0.1:${port}/api/v1/health` } });
    try {
      await postTwilio(
        t,
        '/webhooks/twilio/messaging',
        inboundParams({
          To: '+61491570110',
          From: '+61491570066',
          MessagingServiceSid: SERVICE_SID,
          MessageSid: 'MMssrf',
          Body: 'look',
          NumMedia: '4',
          MediaUrl0: `http://[::ffff:127.0.0.1]:${port}/api/v1/health`,
          MediaUrl1: `http://[::ffff:7f00:1]:${port}/api/v1/health`,
          MediaUrl2: `${fake.url}/hop`,
          MediaUrl3: `http://localhost:${port}/api/v1/health`,
        }),
      );
      const m = await messageWithMedia(t, 'twilio', 'MMssrf');
      expect(m).toMatchObject({
        message: 'look\n(4 attachments could not be downloaded from the provider.)',
        attachments: [],
        meta: { media_failed: 4 },
      });
      expect(inside).toEqual([]);
    } finally {
      internal.close();
    }
  });

  it('fetches the media of a message stored before a stop, when Twilio sends the webhook again', async () => {
    const path = `/2010-04-01/Accounts/${TWILIO_SID}/Messages/MM3/Media/ME3`;
    const gif = Buffer.from('GIF89a-test');
    fake.on('GET', path, { body: gif, headers: { 'content-type': 'image/gif' } });
    // What the first delivery left behind: the message stored, the server stopped before queueing its media.
    await receiveInbound(t.app, {
      provider: 'twilio',
      provider_message_id: 'MM3',
      channel: 'mms',
      location_id: loc2,
      from: { phone: '+61491570007' },
      message: 'Here it is',
      meta: { media_pending: 1 },
      attachments: [],
    });
    const again = inboundParams({
      To: '+61491570110',
      From: '+61491570007',
      MessagingServiceSid: SERVICE_SID,
      MessageSid: 'MM3',
      Body: 'Here it is',
      NumMedia: '1',
      MediaUrl0: `${fake.url}${path}`,
      MediaContentType0: 'image/gif',
    });
    expect((await postTwilio(t, '/webhooks/twilio/messaging', again)).statusCode).toBe(200);
    const m = await messageWithMedia(t, 'twilio', 'MM3');
    expect(m.attachments).toMatchObject([
      { name: 'image-1.gif', content_type: 'image/gif', size: gif.length },
    ]);
    expect(await messagesByProviderId(t, 'twilio', 'MM3')).toHaveLength(1);
  });

  it('sends a reply form-encoded with Basic auth; status callbacks only move it forward', async () => {
    fake.on('POST', MESSAGES_PATH, {
      status: 201,
      json: { sid: 'SM55555555555555555555555555555555', status: 'queued' },
    });
    const res = await send(smsEnquiry, { message: 'Yes, 4:30 works! ✅' });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().body.id as string;
    expect(await settled(id)).toMatchObject({
      status: 'sent',
      provider: 'twilio',
      provider_message_id: 'SM55555555555555555555555555555555',
    });
    const [req] = fake.received('POST', MESSAGES_PATH);
    expect(req!.headers.authorization).toBe(
      `Basic ${Buffer.from(`${TWILIO_SID}:${TWILIO_TOKEN}`).toString('base64')}`,
    );
    expect(req!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(req!.text).toBe(
      new URLSearchParams({
        To: '+15555550123',
        From: '+15555550100',
        Body: 'Yes, 4:30 works! ✅',
        StatusCallback: `${PUBLIC_URL}/webhooks/twilio/messaging/status?m=${id}`,
      }).toString(),
    );

    // The fixture callback (Twilio's own example path), then late or contradicting ones that must not win.
    const delivered = fixtureJson<TwilioEnvelope>('twilio-messaging/status-callback-delivered.json');
    expect((await postFixture(delivered)).statusCode).toBe(200);
    expect((await messageById(t, id)).status).toBe('delivered');
    const statusPath = `/webhooks/twilio/messaging/status?m=${id}`;
    const callback = (p: Record<string, string>) =>
      postTwilio(t, statusPath, {
        AccountSid: TWILIO_SID,
        From: '+15555550100',
        To: '+15555550123',
        MessageSid: 'SM55555555555555555555555555555555',
        ...p,
      });
    expect((await callback({ MessageStatus: 'sent' })).statusCode).toBe(200);
    expect((await callback({ MessageStatus: 'undelivered', ErrorCode: '30003' })).statusCode).toBe(200);
    expect(await messageById(t, id)).toMatchObject({ status: 'delivered', error: null });
    const tampered = await postTwilio(
      t,
      statusPath,
      { AccountSid: TWILIO_SID, MessageSid: 'SM55555555555555555555555555555555', MessageStatus: 'read' },
      { signature: twilioSignature(TWILIO_TOKEN, `${PUBLIC_URL}${statusPath}`, { MessageStatus: 'read' }) },
    );
    expect(tampered.statusCode).toBe(403);
  });

  it('fails a message the carrier could not deliver, with the Twilio code explained', async () => {
    fake.on('POST', MESSAGES_PATH, {
      status: 201,
      json: { sid: 'SM66666666666666666666666666666666', status: 'queued' },
    });
    const id = (await send(smsEnquiry, { message: 'Reminder: 4:30 tomorrow' })).json().body.id as string;
    await settled(id);
    const res = await postTwilio(t, `/webhooks/twilio/messaging/status?m=${id}`, {
      AccountSid: TWILIO_SID,
      From: '+15555550100',
      MessageSid: 'SM66666666666666666666666666666666',
      MessageStatus: 'undelivered',
      ErrorCode: '30003',
    });
    expect(res.statusCode).toBe(200);
    expect(await messageById(t, id)).toMatchObject({
      status: 'failed',
      error:
        "Twilio error 30003: The customer's phone is switched off or out of coverage, so the message could not be delivered.",
    });
  });

  it('matches a status callback that arrives before the send job recorded the SID, by our id in its URL', async () => {
    fake.on('POST', MESSAGES_PATH, {
      status: 201,
      json: { sid: 'SM77777777777777777777777777777777', status: 'queued' },
      delayMs: 1500,
    });
    const id = (await send(smsEnquiry, { message: 'Racing the callback' })).json().body.id as string;
    await eventually(async () =>
      fake.received('POST', MESSAGES_PATH).some((r) => r.form().get('Body') === 'Racing the callback'),
    );
    const res = await postTwilio(t, `/webhooks/twilio/messaging/status?m=${id}`, {
      AccountSid: TWILIO_SID,
      From: '+15555550100',
      MessageSid: 'SM77777777777777777777777777777777',
      MessageStatus: 'delivered',
    });
    expect(res.statusCode).toBe(200);
    expect(await messageById(t, id)).toMatchObject({
      status: 'delivered',
      provider_message_id: 'SM77777777777777777777777777777777',
    });
    // The send job recording its own "sent" afterwards does not move it back.
    await jobsSettled(t, messageSend, { id });
    expect((await messageById(t, id)).status).toBe('delivered');
  });

  it('retries 5xx and 429 with backoff, then sends', async () => {
    fake.on(
      'POST',
      MESSAGES_PATH,
      { status: 503, json: { code: 20500, message: 'Service unavailable' } },
      { status: 429, json: { code: 20429, message: 'Too Many Requests' } },
      { status: 201, json: { sid: 'SM88888888888888888888888888888888', status: 'queued' } },
    );
    const id = (await send(smsEnquiry, { message: 'Third time lucky' })).json().body.id as string;
    expect(await settled(id, 80_000)).toMatchObject({
      status: 'sent',
      provider_message_id: 'SM88888888888888888888888888888888',
    });
    expect(
      fake.received('POST', MESSAGES_PATH).filter((r) => r.form().get('Body') === 'Third time lucky'),
    ).toHaveLength(3);
  });

  it('fails at once on a permanent refusal, with the reason in plain English', async () => {
    fake.on('POST', MESSAGES_PATH, {
      status: 400,
      json: { code: 21211, message: "The 'To' number is not a valid phone number.", status: 400 },
    });
    const id = (await send(smsEnquiry, { message: 'Never arrives' })).json().body.id as string;
    expect(await settled(id)).toMatchObject({
      status: 'failed',
      error: "Twilio error 21211: The customer's phone number is not a valid phone number.",
    });
    const [job] = await jobsSettled(t, messageSend, { id });
    expect(job).toMatchObject({ state: 'completed', retryCount: 0 });
    expect(
      fake.received('POST', MESSAGES_PATH).filter((r) => r.form().get('Body') === 'Never arrives'),
    ).toHaveLength(1);
  });

  it('STOP opts the customer out (the message is kept) and sends are refused; START opts back in', async () => {
    const from = '+61491570222';
    await postTwilio(
      t,
      '/webhooks/twilio/messaging',
      inboundParams({ MessageSid: 'SMstop0', From: from, Body: 'Hello' }),
    );
    const [first] = await messagesByProviderId(t, 'twilio', 'SMstop0');
    expect((await customerById(t, first!.customer_id)).sms_opted_out).toBe(false);
    await postTwilio(
      t,
      '/webhooks/twilio/messaging',
      inboundParams({ MessageSid: 'SMstop1', From: from, Body: ' Stop. ' }),
    );
    const [stop] = await messagesByProviderId(t, 'twilio', 'SMstop1');
    expect(stop).toMatchObject({ message: ' Stop. ', enquiry_id: first!.enquiry_id });
    expect((await customerById(t, first!.customer_id)).sms_opted_out).toBe(true);

    const refused = await send(first!.enquiry_id, { message: 'Are you sure?' });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toEqual({
      message:
        'This customer has opted out of SMS (they replied STOP). They must text START to receive messages again.',
      code: 'unprocessable',
    });
    // Words that merely contain a keyword are ordinary messages.
    await postTwilio(
      t,
      '/webhooks/twilio/messaging',
      inboundParams({ MessageSid: 'SMstop2', From: from, Body: 'please start again' }),
    );
    expect((await customerById(t, first!.customer_id)).sms_opted_out).toBe(true);
    await postTwilio(
      t,
      '/webhooks/twilio/messaging',
      inboundParams({ MessageSid: 'SMstop3', From: from, Body: 'START' }),
    );
    expect((await customerById(t, first!.customer_id)).sms_opted_out).toBe(false);
    fake.on('POST', MESSAGES_PATH, { status: 201, json: { sid: 'SMstop-reply', status: 'queued' } });
    expect((await send(first!.enquiry_id, { message: 'Welcome back' })).statusCode).toBe(200);
  });

  it('Twilio error 21610 on send marks the customer opted out and fails the message with that reason', async () => {
    const from = '+61491570333';
    await postTwilio(
      t,
      '/webhooks/twilio/messaging',
      inboundParams({ MessageSid: 'SM21610in', From: from, Body: 'hi' }),
    );
    const [m] = await messagesByProviderId(t, 'twilio', 'SM21610in');
    fake.on('POST', MESSAGES_PATH, {
      status: 400,
      json: { code: 21610, message: 'Attempt to send to unsubscribed recipient', status: 400 },
    });
    const id = (await send(m!.enquiry_id, { message: 'Hello?' })).json().body.id as string;
    expect(await settled(id)).toMatchObject({
      status: 'failed',
      error:
        'This customer has opted out of SMS (they replied STOP). They must text START to receive messages again.',
    });
    expect((await customerById(t, m!.customer_id)).sms_opted_out).toBe(true);
    expect((await send(m!.enquiry_id, { message: 'Again' })).statusCode).toBe(422);
  });

  it('sends attachments as MediaUrl links that are signed, expire, and serve the upload', async () => {
    const [e] = [await enquiryOf(t, smsEnquiry)];
    const pdf = Buffer.from('%PDF-1.4 intake form');
    const upload = await saveUpload(t.database.db, t.config, {
      business_id: e.business_id,
      user_id: null,
      name: 'intake form.pdf',
      content_type: 'application/pdf',
      bytes: pdf,
    });
    fake.on('POST', MESSAGES_PATH, { status: 201, json: { sid: 'SMmedia', status: 'queued' } });
    const id = (await send(smsEnquiry, { message: 'Please fill this in', attachments: [upload.id] })).json()
      .body.id as string;
    await settled(id);
    const req = fake
      .received('POST', MESSAGES_PATH)
      .find((r) => r.form().get('Body') === 'Please fill this in')!;
    const mediaUrl = req.form().getAll('MediaUrl');
    expect(mediaUrl).toHaveLength(1);
    expect(mediaUrl[0]).toMatch(new RegExp(`^${PUBLIC_URL}/media/${upload.id}\\?exp=\\d+&sig=[\\w-]+$`));

    const path = mediaUrl[0]!.slice(PUBLIC_URL.length);
    const served = await t.request({ method: 'GET', url: path });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('application/pdf');
    expect(served.rawPayload.equals(pdf)).toBe(true);
    const forged = await t.request({
      method: 'GET',
      url: path.slice(0, -1) + (path.endsWith('A') ? 'B' : 'A'),
    });
    expect(forged.statusCode).toBe(403);
    const old = signedMediaUrl(t.config, upload.id, Date.now() - 2 * 24 * 3600 * 1000).slice(
      PUBLIC_URL.length,
    );
    const expired = await t.request({ method: 'GET', url: old });
    expect(expired.statusCode).toBe(403);
    expect(expired.json().message).toBe('This link has expired.');
  });
});
