import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { customers, messages } from '@switchboard/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerProfile } from '../../jobs/definitions/customer-profile.ts';
import { saveUpload } from '../../lib/storage.ts';
import { applyUnsend } from '../../modules/channels/ingest.ts';
import {
  type ChannelSuite,
  connect,
  countMessages,
  customerById,
  enquiryOf,
  type FakeProvider,
  fixtureBytes,
  fixtureJson,
  META_SECRET,
  messageById,
  messagesByProviderId,
  messageWithMedia,
  SETUP_TIMEOUT_MS,
  SUITE_TIMEOUTS,
  startChannelSuite,
} from '../../modules/channels/test-support.ts';
import { eventually, jobsSettled, type TestApp } from '../../test/helpers.ts';
import { hubSignature, verifyHubSignature } from './signature.ts';

const WA_TOKEN = 'EAAGwhatsapptoken0001';
const PAGE_TOKEN = 'EAAGpagetoken0002';
const IG_TOKEN = 'IGQVJinstatoken0003';
const WA_SEND = '/v24.0/100000000000002/messages';
const PAGE_SEND = '/v24.0/100000000000010/messages';
const IG_SEND = '/v24.0/me/messages';

const sigOf = (file: string) =>
  fixtureJson<{ files: Record<string, { 'X-Hub-Signature-256': string }> }>(
    file.replace(/[^/]+$/, '_signatures.json'),
  ).files[file.split('/')[1]!]!['X-Hub-Signature-256'];

describe('X-Hub-Signature-256', () => {
  it('verifies the fixtures over their exact bytes and refuses a re-serialised body', () => {
    for (const file of [
      'whatsapp-cloud/inbound-text.json',
      'whatsapp-cloud/status-delivered.json',
      'meta-messenger-instagram/messenger-inbound-text.json',
      'meta-messenger-instagram/instagram-inbound-text.json',
    ]) {
      const raw = fixtureBytes(file);
      expect(verifyHubSignature(META_SECRET, raw, sigOf(file)), file).toBe(true);
    }
    const raw = fixtureBytes('whatsapp-cloud/inbound-text.json');
    const reserialised = Buffer.from(JSON.stringify(JSON.parse(raw.toString('utf8'))));
    expect(reserialised.length).toBe(473);
    expect(verifyHubSignature(META_SECRET, reserialised, sigOf('whatsapp-cloud/inbound-text.json'))).toBe(
      false,
    );
    expect(hubSignature(META_SECRET, reserialised)).toBe(
      'sha256=8ccf772d69cc3b7428841d32e31eedd9dcf6942f6759bb2851ebf714bcaad7b2',
    );
    expect(verifyHubSignature(META_SECRET, raw, undefined)).toBe(false);
    expect(verifyHubSignature('another-secret', raw, sigOf('whatsapp-cloud/inbound-text.json'))).toBe(false);
  });
});

describe('Meta: WhatsApp Cloud API, Messenger and Instagram', SUITE_TIMEOUTS, () => {
  let suite: ChannelSuite;
  let fake: FakeProvider;
  let t: TestApp;
  let owner: string;
  let staff: string;
  let loc1: string;
  let loc2: string;
  let whatsappChannel: string;

  const postMeta = (body: Buffer | string, signature: string | null = hubSignature(META_SECRET, body)) =>
    t.request({
      method: 'POST',
      url: '/webhooks/meta',
      headers: {
        'content-type': 'application/json',
        ...(signature ? { 'x-hub-signature-256': signature } : {}),
      },
      payload: body,
    });
  const postFixture = (file: string) => postMeta(fixtureBytes(file), sigOf(file));
  const send = (enquiryId: string, payload: object) =>
    t.request({ method: 'POST', url: `/api/v1/enquiries/${enquiryId}/messages`, token: staff, payload });
  const settled = (id: string, timeout = 40_000) =>
    eventually(async () => {
      const m = await messageById(t, id);
      return m.status !== 'queued' && m;
    }, timeout);
  const nowSeconds = () => String(Math.floor(Date.now() / 1000));
  const waInbound = (message: Record<string, unknown>, phoneNumberId = '100000000000002') =>
    JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: '100000000000001',
          changes: [
            {
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: '61491570110', phone_number_id: phoneNumberId },
                contacts: [{ profile: { name: 'Zoë Citizen' }, wa_id: '61491570006' }],
                messages: [{ from: '61491570006', timestamp: nowSeconds(), ...message }],
              },
              field: 'messages',
            },
          ],
        },
      ],
    });
  const waStatus = (status: Record<string, unknown>) =>
    JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: '100000000000001',
          changes: [
            {
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: '61491570110', phone_number_id: '100000000000002' },
                statuses: [{ timestamp: nowSeconds(), recipient_id: '61491570006', ...status }],
              },
              field: 'messages',
            },
          ],
        },
      ],
    });
  const messaging = (object: 'page' | 'instagram', entryId: string, event: Record<string, unknown>) =>
    JSON.stringify({
      object,
      entry: [{ id: entryId, time: Date.now(), messaging: [{ timestamp: Date.now(), ...event }] }],
    });

  beforeAll(async () => {
    suite = await startChannelSuite();
    ({ fake, t, owner, staff } = suite);
    [loc1, loc2] = suite.locations;
    const meta = { app_secret: META_SECRET, verify_token: 'fixture-verify-token' };
    whatsappChannel = (
      await connect(t, owner, {
        location_id: loc1,
        provider: 'whatsapp',
        config: {
          phone_number_id: '100000000000002',
          waba_id: '100000000000001',
          access_token: WA_TOKEN,
          ...meta,
        },
      })
    ).id;
    await connect(t, owner, {
      location_id: loc2,
      provider: 'messenger',
      config: {
        page_id: '100000000000010',
        page_access_token: PAGE_TOKEN,
        ...meta,
        verify_token: 'page-verify',
      },
    });
    await connect(t, owner, {
      location_id: loc2,
      provider: 'instagram',
      config: {
        instagram_account_id: '17841400000000001',
        access_token: IG_TOKEN,
        ...meta,
        verify_token: 'ig-verify',
      },
    });
  }, SETUP_TIMEOUT_MS);
  afterAll(() => suite.close(), SETUP_TIMEOUT_MS);

  describe('verification handshake', () => {
    it("answers the challenge when the verify token matches any account's, else 403", async () => {
      const ok = await t.request({
        method: 'GET',
        url: '/webhooks/meta?hub.mode=subscribe&hub.challenge=1158201444&hub.verify_token=fixture-verify-token',
      });
      expect(ok.statusCode).toBe(200);
      expect(ok.headers['content-type']).toContain('text/plain');
      expect(ok.body).toBe('1158201444');
      const ig = await t.request({
        method: 'GET',
        url: '/webhooks/meta?hub.mode=subscribe&hub.challenge=42&hub.verify_token=ig-verify',
      });
      expect(ig.body).toBe('42');
      const wrong = await t.request({
        method: 'GET',
        url: '/webhooks/meta?hub.mode=subscribe&hub.challenge=1158201444&hub.verify_token=guess',
      });
      expect(wrong.statusCode).toBe(403);
      const missing = await t.request({ method: 'GET', url: '/webhooks/meta?hub.mode=subscribe' });
      expect(missing.statusCode).toBe(400);
    });
  });

  describe('WhatsApp', () => {
    let enquiryId: string;

    it('refuses the fixture re-serialised (non-ASCII escapes lost), missing or foreign signatures: 403, nothing stored', async () => {
      const raw = fixtureBytes('whatsapp-cloud/inbound-text.json');
      const sig = sigOf('whatsapp-cloud/inbound-text.json');
      const before = await countMessages(t);
      expect((await postMeta(JSON.stringify(JSON.parse(raw.toString('utf8'))), sig)).statusCode).toBe(403);
      expect((await postMeta(raw, null)).statusCode).toBe(403);
      expect((await postMeta(raw, hubSignature('another-apps-secret', raw))).statusCode).toBe(403);
      expect(await countMessages(t)).toBe(before);
    });

    it('accepts the inbound text fixture and stores it normalised, once', async () => {
      const res = await postFixture('whatsapp-cloud/inbound-text.json');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.body).toBe('EVENT_RECEIVED');
      const [m] = await messagesByProviderId(t, 'whatsapp', 'wamid.FIXTURE-INBOUND-TEXT-0001');
      expect(m).toMatchObject({
        channel: 'whatsapp',
        direction: 'in',
        status: 'received',
        message: 'Hi, is the café open on Sunday? ☕',
        meta: { wa_type: 'text' },
      });
      expect(m!.created_at.toISOString()).toBe('2026-01-01T00:00:00.000Z');
      expect(await customerById(t, m!.customer_id)).toMatchObject({
        phone: '+61491570006',
        name: 'Zoë Citizen',
      });
      const e = await enquiryOf(t, m!.enquiry_id);
      expect(e).toMatchObject({ location_id: loc1, channel: 'whatsapp' });
      enquiryId = e.id;
      expect((await postFixture('whatsapp-cloud/inbound-text.json')).statusCode).toBe(200);
      expect(await messagesByProviderId(t, 'whatsapp', 'wamid.FIXTURE-INBOUND-TEXT-0001')).toHaveLength(1);
    });

    it('answers 200 and stores nothing for a number no account owns; 400 for malformed bodies', async () => {
      const before = await countMessages(t);
      const unknown = await postMeta(
        waInbound({ id: 'wamid.UNKNOWN', type: 'text', text: { body: 'hi' } }, '999999999'),
      );
      expect(unknown.statusCode).toBe(200);
      expect((await postMeta('{"object":')).statusCode).toBe(400);
      expect((await postMeta('{"object":"whatsapp_business_account","entry":"x"}')).statusCode).toBe(400);
      expect(
        (
          await postMeta(
            '{"object":"whatsapp_business_account","entry":[{"changes":[{"field":"messages","value":{"metadata":{"phone_number_id":"100000000000002"},"messages":[{"type":"text"}]}}]}]}',
          )
        ).statusCode,
      ).toBe(400);
      // Other subscribed objects are acknowledged and ignored.
      expect((await postMeta('{"object":"permissions","entry":[{"id":"1","time":1}]}')).statusCode).toBe(200);
      expect(await countMessages(t)).toBe(before);
    });

    it('downloads an image through the Graph API with the access token', async () => {
      const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 9, 9, 9]);
      fake
        .on('GET', '/v24.0/1003383421387256', {
          json: {
            url: `${fake.url}/whatsapp/media/1003383421387256`,
            mime_type: 'image/jpeg',
            id: '1003383421387256',
          },
        })
        .on('GET', '/whatsapp/media/1003383421387256', {
          body: jpeg,
          headers: { 'content-type': 'image/jpeg' },
        });
      const res = await postMeta(
        waInbound({
          id: 'wamid.IMAGE-0001',
          type: 'image',
          image: {
            caption: 'Is this the right part?',
            mime_type: 'image/jpeg',
            sha256: 'x',
            id: '1003383421387256',
          },
        }),
      );
      expect(res.statusCode).toBe(200);
      const m = await messageWithMedia(t, 'whatsapp', 'wamid.IMAGE-0001');
      expect(m).toMatchObject({ enquiry_id: enquiryId, message: 'Is this the right part?' });
      expect(m!.attachments).toMatchObject([
        { name: 'image-1.jpg', content_type: 'image/jpeg', size: jpeg.length },
      ]);
      for (const path of ['/v24.0/1003383421387256', '/whatsapp/media/1003383421387256']) {
        expect(fake.received('GET', path)[0]!.headers.authorization).toBe(`Bearer ${WA_TOKEN}`);
      }
    });

    it('never fetches WhatsApp media from the server itself, by image.url or by the URL a lookup gives', async () => {
      const inside: string[] = [];
      const internal = createServer((req, res) => {
        inside.push(req.url ?? '');
        res.end('internal');
      }).listen(0, '127.0.0.1');
      await new Promise((r) => internal.once('listening', r));
      const port = (internal.address() as AddressInfo).port;
      fake.on('GET', '/v24.0/2000000000000001', {
        json: {
          url: `http://[::ffff:127.0.0.1]:${port}/media`,
          mime_type: 'image/jpeg',
          id: '2000000000000001',
        },
      });
      try {
        for (const [id, image] of [
          ['wamid.SSRF-1', { mime_type: 'image/jpeg', url: `http://[::ffff:7f00:1]:${port}/api/v1/health` }],
          ['wamid.SSRF-2', { mime_type: 'image/jpeg', id: '2000000000000001' }],
        ] as const) {
          expect((await postMeta(waInbound({ id, type: 'image', image }))).statusCode).toBe(200);
          const m = await messageWithMedia(t, 'whatsapp', id);
          expect(m).toMatchObject({ attachments: [], meta: { media_failed: 1 } });
        }
        expect(inside).toEqual([]);
      } finally {
        internal.close();
      }
    });

    it('refuses free text outside the 24-hour window with 422; templates are synced and sent as type=template', async () => {
      // The last message is recent (the image above): move the whole conversation back 25 hours.
      await t.database.db
        .update(messages)
        .set({ created_at: new Date(Date.now() - 25 * 3600 * 1000) })
        .where(eq(messages.enquiry_id, enquiryId));
      const refused = await send(enquiryId, { message: 'Yes, open 8 to 2' });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().message).toContain('only allows approved templates');

      fake.on('GET', '/v24.0/100000000000001/message_templates', {
        json: {
          data: [
            {
              name: 'booking_reminder',
              language: 'en',
              status: 'APPROVED',
              category: 'UTILITY',
              components: [
                { type: 'HEADER', format: 'TEXT', text: 'Booking reminder' },
                { type: 'BODY', text: 'Hi {{1}}, this is a reminder of your booking on {{2}}.' },
              ],
            },
            {
              name: 'spring_sale',
              language: 'en',
              status: 'PENDING',
              category: 'MARKETING',
              components: [{ type: 'BODY', text: 'Sale!' }],
            },
          ],
        },
      });
      const list = await t.request({
        method: 'GET',
        url: `/api/v1/channels/${whatsappChannel}/whatsapp-templates`,
        token: staff,
      });
      expect(list.statusCode, list.body).toBe(200);
      expect(list.json().body.items[0]).toEqual({
        name: 'booking_reminder',
        language: 'en',
        status: 'APPROVED',
        category: 'UTILITY',
        body: 'Hi {{1}}, this is a reminder of your booking on {{2}}.',
        variables: ['1', '2'],
        parameter_format: 'POSITIONAL',
      });
      const [sync] = fake.received('GET', '/v24.0/100000000000001/message_templates');
      expect(sync!.headers.authorization).toBe(`Bearer ${WA_TOKEN}`);
      const forEnquiry = await t.request({
        method: 'GET',
        url: `/api/v1/enquiries/${enquiryId}/whatsapp-templates`,
        token: staff,
      });
      expect(forEnquiry.json().body.items).toHaveLength(2);
      // Cached in the account: no second call to Meta.
      expect(fake.received('GET', '/v24.0/100000000000001/message_templates')).toHaveLength(1);

      const template = (payload: object) =>
        t.request({
          method: 'POST',
          url: `/api/v1/enquiries/${enquiryId}/whatsapp-template`,
          token: staff,
          payload,
        });
      const short = await template({ name: 'booking_reminder', language: 'en', variables: ['Zoë'] });
      expect(short.statusCode).toBe(422);
      expect(short.json().message).toBe('The template "booking_reminder" needs 2 variables; 1 given.');
      const pending = await template({ name: 'spring_sale', language: 'en', variables: [] });
      expect(pending.json().message).toBe(
        'The template "spring_sale" is pending: only approved templates can be sent.',
      );

      fake.on('POST', WA_SEND, { json: fixtureJson('whatsapp-cloud/send-response.json') });
      const sent = await template({
        name: 'booking_reminder',
        language: 'en',
        variables: ['Zoë', 'Fri 2 Jan, 3:00pm'],
      });
      expect(sent.statusCode, sent.body).toBe(200);
      const message = sent.json().body;
      expect(message).toMatchObject({
        status: 'queued',
        message: 'Hi Zoë, this is a reminder of your booking on Fri 2 Jan, 3:00pm.',
        meta: {
          whatsapp_template: {
            name: 'booking_reminder',
            language: 'en',
            variables: ['Zoë', 'Fri 2 Jan, 3:00pm'],
          },
        },
      });
      expect(await settled(message.id)).toMatchObject({
        status: 'sent',
        provider: 'whatsapp',
        provider_message_id: 'wamid.FIXTURE-OUTBOUND-0001',
      });
      const [req] = fake.received('POST', WA_SEND);
      expect(req!.headers.authorization).toBe(`Bearer ${WA_TOKEN}`);
      expect(req!.json()).toEqual({
        ...fixtureJson('whatsapp-cloud/send-template.request.json'),
        biz_opaque_callback_data: message.id,
      });

      // The fixture status callbacks for that message: delivered, then a late "sent" changes nothing.
      expect((await postFixture('whatsapp-cloud/status-delivered.json')).statusCode).toBe(200);
      expect((await messageById(t, message.id)).status).toBe('delivered');
      await postMeta(waStatus({ id: 'wamid.FIXTURE-OUTBOUND-0001', status: 'sent' }));
      expect((await messageById(t, message.id)).status).toBe('delivered');
      await postMeta(waStatus({ id: 'wamid.FIXTURE-OUTBOUND-0001', status: 'read' }));
      await postMeta(waStatus({ id: 'wamid.FIXTURE-OUTBOUND-0001', status: 'delivered' }));
      expect((await messageById(t, message.id)).status).toBe('read');
    });

    it('sends free text once the customer writes again, with the exact Cloud API body', async () => {
      await postMeta(
        waInbound({ id: 'wamid.INBOUND-AGAIN', type: 'text', text: { body: 'Are you open Sunday?' } }),
      );
      fake.on('POST', WA_SEND, {
        json: { messaging_product: 'whatsapp', messages: [{ id: 'wamid.OUT-TEXT-0002' }] },
      });
      const res = await send(enquiryId, { message: 'Yes! We are open 8am-2pm on Sunday.' });
      expect(res.statusCode, res.body).toBe(200);
      const id = res.json().body.id as string;
      expect(await settled(id)).toMatchObject({ status: 'sent', provider_message_id: 'wamid.OUT-TEXT-0002' });
      const req = fake.received('POST', WA_SEND).at(-1)!;
      expect(req.json()).toEqual({
        ...fixtureJson('whatsapp-cloud/send-text.request.json'),
        biz_opaque_callback_data: id,
      });
    });

    it("keeps one customer for a Brazilian mobile's two spellings, and replies to the number WhatsApp knows", async () => {
      const fromBrazil = (waId: string, id: string, body: string) =>
        JSON.stringify({
          object: 'whatsapp_business_account',
          entry: [
            {
              id: '100000000000001',
              changes: [
                {
                  value: {
                    messaging_product: 'whatsapp',
                    metadata: { display_phone_number: '61491570110', phone_number_id: '100000000000002' },
                    contacts: [{ profile: { name: 'João Silva' }, wa_id: waId }],
                    messages: [{ from: waId, id, timestamp: nowSeconds(), type: 'text', text: { body } }],
                  },
                  field: 'messages',
                },
              ],
            },
          ],
        });
      expect((await postMeta(fromBrazil('556181234567', 'wamid.BR-12', 'Olá'))).statusCode).toBe(200);
      expect((await postMeta(fromBrazil('5561981234567', 'wamid.BR-13', 'Tudo bem?'))).statusCode).toBe(200);
      const [twelve] = await messagesByProviderId(t, 'whatsapp', 'wamid.BR-12');
      const [thirteen] = await messagesByProviderId(t, 'whatsapp', 'wamid.BR-13');
      expect(thirteen!.customer_id).toBe(twelve!.customer_id);
      expect((await customerById(t, twelve!.customer_id))!.phone).toBe('+5561981234567');

      // The customer last wrote as the 12-digit id: the reply goes there.
      await postMeta(fromBrazil('556181234567', 'wamid.BR-12-AGAIN', 'Oi?'));
      fake.on('POST', WA_SEND, {
        json: { messaging_product: 'whatsapp', messages: [{ id: 'wamid.OUT-BR' }] },
      });
      const id = (await send(twelve!.enquiry_id, { message: 'Olá João!' })).json().body.id as string;
      expect(await settled(id)).toMatchObject({ status: 'sent', provider_message_id: 'wamid.OUT-BR' });
      expect(fake.received('POST', WA_SEND).at(-1)!.json()).toMatchObject({ to: '556181234567' });
    });

    it('sends an attachment as a media message with the text as its caption, by a signed link', async () => {
      const e = await enquiryOf(t, enquiryId);
      const upload = await saveUpload(t.database.db, t.config, {
        business_id: e.business_id,
        user_id: null,
        name: 'menu.jpg',
        content_type: 'image/jpeg',
        bytes: Buffer.from([0xff, 0xd8, 0xff, 0xe0]),
      });
      fake.on('POST', WA_SEND, { json: { messages: [{ id: 'wamid.OUT-MEDIA' }] } });
      const id = (await send(enquiryId, { message: 'Our Sunday menu', attachments: [upload.id] })).json().body
        .id as string;
      expect(await settled(id)).toMatchObject({ status: 'sent', provider_message_id: 'wamid.OUT-MEDIA' });
      expect(fake.received('POST', WA_SEND).at(-1)!.json()).toEqual({
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to: '+61491570006',
        type: 'image',
        image: {
          link: expect.stringMatching(
            new RegExp(`^https://app\\.example\\.com/media/${upload.id}\\?exp=\\d+&sig=[\\w-]+$`),
          ),
          caption: 'Our Sunday menu',
        },
        biz_opaque_callback_data: id,
      });
    });

    it('fails with Meta error codes explained; retries 5xx; a failed status report carries the reason', async () => {
      fake.on('POST', WA_SEND, {
        status: 400,
        json: {
          error: {
            message: '(#131026) Message Undeliverable.',
            type: 'OAuthException',
            code: 131026,
            fbtrace_id: 'x',
          },
        },
      });
      const failed = (await send(enquiryId, { message: 'Permanent' })).json().body.id as string;
      expect(await settled(failed)).toMatchObject({
        status: 'failed',
        error:
          "Meta error 131026: The message could not be delivered: the customer's number may not be on WhatsApp, or they use an old version of WhatsApp.",
      });

      fake.on(
        'POST',
        WA_SEND,
        {
          status: 500,
          json: { error: { message: 'An unknown error occurred', code: 1, is_transient: true } },
        },
        { json: { messages: [{ id: 'wamid.RETRIED' }] } },
      );
      const retried = (await send(enquiryId, { message: 'Transient' })).json().body.id as string;
      expect(await settled(retried, 80_000)).toMatchObject({
        status: 'sent',
        provider_message_id: 'wamid.RETRIED',
      });

      await postMeta(
        waStatus({
          id: 'wamid.RETRIED',
          status: 'failed',
          errors: [
            {
              code: 131049,
              title: 'This message was not delivered to maintain healthy ecosystem engagement.',
              error_data: {
                details:
                  'In order to maintain a healthy ecosystem engagement, the message failed to be delivered.',
              },
            },
          ],
        }),
      );
      expect(await messageById(t, retried)).toMatchObject({
        status: 'failed',
        error:
          'Meta error 131049: Meta chose not to deliver this marketing message to keep engagement healthy. Try again later.',
      });
    });
  });

  describe('Messenger', () => {
    let enquiryId: string;

    it('accepts the fixture (escaped non-ASCII) and refuses it re-serialised', async () => {
      const file = 'meta-messenger-instagram/messenger-inbound-text.json';
      const raw = fixtureBytes(file);
      expect((await postMeta(JSON.stringify(JSON.parse(raw.toString('utf8'))), sigOf(file))).statusCode).toBe(
        403,
      );
      expect(await messagesByProviderId(t, 'messenger', 'm_FIXTURE-MESSENGER-TEXT-0001')).toHaveLength(0);
      expect((await postFixture(file)).statusCode).toBe(200);
      expect((await postFixture(file)).statusCode).toBe(200);
      const found = await messagesByProviderId(t, 'messenger', 'm_FIXTURE-MESSENGER-TEXT-0001');
      expect(found).toHaveLength(1);
      expect(found[0]).toMatchObject({
        channel: 'facebook',
        message: 'Hola! ¿Tienen mesa para 4 esta noche?',
      });
      expect((await customerById(t, found[0]!.customer_id)).external_ids).toEqual({
        facebook: '7000000000000001',
      });
      const e = await enquiryOf(t, found[0]!.enquiry_id);
      expect(e).toMatchObject({ location_id: loc2, channel: 'facebook' });
      enquiryId = e.id;
    });

    it('replies outside 24 h with the HUMAN_AGENT tag, inside as a RESPONSE; delivery and read move it on', async () => {
      fake.on('POST', PAGE_SEND, { json: { recipient_id: '7000000000000001', message_id: 'm_OUT-TAGGED' } });
      const tagged = (await send(enquiryId, { message: 'Sorry for the slow reply!' })).json().body
        .id as string;
      await settled(tagged);
      expect(fake.received('POST', PAGE_SEND).at(-1)!.json()).toEqual({
        recipient: { id: '7000000000000001' },
        messaging_type: 'MESSAGE_TAG',
        tag: 'HUMAN_AGENT',
        message: { text: 'Sorry for the slow reply!' },
      });

      await postMeta(
        messaging('page', '100000000000010', {
          sender: { id: '7000000000000001' },
          recipient: { id: '100000000000010' },
          message: { mid: 'm_IN-FRESH', text: '¿A las 19:30?' },
        }),
      );
      fake.on('POST', PAGE_SEND, {
        json: fixtureJson('meta-messenger-instagram/messenger-send.response.json'),
      });
      const id = (await send(enquiryId, { message: '¡Sí! Tenemos mesa a las 19:30.' })).json().body
        .id as string;
      expect(await settled(id)).toMatchObject({
        status: 'sent',
        provider_message_id: 'm_FIXTURE-MESSENGER-OUT-0001',
      });
      const req = fake.received('POST', PAGE_SEND).at(-1)!;
      expect(req.headers.authorization).toBe(`Bearer ${PAGE_TOKEN}`);
      expect(req.json()).toEqual(fixtureJson('meta-messenger-instagram/messenger-send-text.request.json'));

      await postMeta(
        messaging('page', '100000000000010', {
          sender: { id: '7000000000000001' },
          recipient: { id: '100000000000010' },
          delivery: { mids: ['m_FIXTURE-MESSENGER-OUT-0001'], watermark: Date.now() },
        }),
      );
      expect((await messageById(t, id)).status).toBe('delivered');
      await postMeta(
        messaging('page', '100000000000010', {
          sender: { id: '7000000000000001' },
          recipient: { id: '100000000000010' },
          read: { watermark: Date.now() + 1000 },
        }),
      );
      expect((await messageById(t, id)).status).toBe('read');
      expect((await messageById(t, tagged)).status).toBe('read');
    });

    it('downloads image attachments', async () => {
      const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1]);
      fake.on('GET', '/cdn/messenger-image.png', { body: png, headers: { 'content-type': 'image/png' } });
      await postMeta(
        messaging('page', '100000000000010', {
          sender: { id: '7000000000000001' },
          recipient: { id: '100000000000010' },
          message: {
            mid: 'm_IMAGE-1',
            attachments: [{ type: 'image', payload: { url: `${fake.url}/cdn/messenger-image.png` } }],
          },
        }),
      );
      const m = await messageWithMedia(t, 'messenger', 'm_IMAGE-1');
      expect(m).toMatchObject({ enquiry_id: enquiryId, message: '' });
      expect(m!.attachments).toMatchObject([{ content_type: 'image/png', size: png.length }]);
    });
  });

  describe('Instagram', () => {
    it('accepts the fixture, ignores echoes of our own messages, and replies through the Send API', async () => {
      const file = 'meta-messenger-instagram/instagram-inbound-text.json';
      expect((await postFixture(file)).statusCode).toBe(200);
      const [m] = await messagesByProviderId(t, 'instagram', 'aWdfFIXTURE-INSTAGRAM-TEXT-0001');
      expect(m).toMatchObject({ channel: 'instagram', message: 'Do you ship to Perth?' });
      const [c] = await t.database.db.select().from(customers).where(eq(customers.id, m!.customer_id));
      expect(c!.external_ids).toEqual({ instagram: '1000000000000000002' });

      const before = await countMessages(t);
      const echo = await postMeta(
        messaging('instagram', '17841400000000001', {
          sender: { id: '17841400000000001' },
          recipient: { id: '1000000000000000002' },
          message: { mid: 'aWdfECHO-1', text: 'Sent from the Instagram app', is_echo: true },
        }),
      );
      expect(echo.statusCode).toBe(200);
      expect(await countMessages(t)).toBe(before);

      await postMeta(
        messaging('instagram', '17841400000000001', {
          sender: { id: '1000000000000000002' },
          recipient: { id: '17841400000000001' },
          message: { mid: 'aWdfFRESH-1', text: 'And to Darwin?' },
        }),
      );
      fake.on('POST', IG_SEND, { json: { recipient_id: '1000000000000000002', message_id: 'aWdfOUT-1' } });
      const id = (await send(m!.enquiry_id, { message: 'Yes, we ship Australia-wide.' })).json().body
        .id as string;
      expect(await settled(id)).toMatchObject({
        status: 'sent',
        provider: 'instagram',
        provider_message_id: 'aWdfOUT-1',
      });
      const req = fake.received('POST', IG_SEND).at(-1)!;
      expect(req.headers.authorization).toBe(`Bearer ${IG_TOKEN}`);
      expect(req.json()).toEqual(fixtureJson('meta-messenger-instagram/instagram-send-text.request.json'));
    });
  });

  describe('Instagram standby, stories and unsends', () => {
    const IG = '17841400000000001';
    const customer = { sender: { id: '1000000000000000031' }, recipient: { id: IG } };
    const standby = (event: Record<string, unknown>) =>
      JSON.stringify({
        object: 'instagram',
        entry: [{ id: IG, time: Date.now(), standby: [{ timestamp: Date.now(), ...event }] }],
      });

    it('stores a message Meta delivers in standby while another app holds the thread', async () => {
      const res = await postMeta(
        standby({ ...customer, message: { mid: 'aWdfSTANDBY-1', text: 'Anyone there?' } }),
      );
      expect(res.statusCode).toBe(200);
      const [m] = await messagesByProviderId(t, 'instagram', 'aWdfSTANDBY-1');
      expect(m).toMatchObject({ channel: 'instagram', message: 'Anyone there?' });
    });

    it('keeps the story a customer replied to or mentioned the business in (https links only)', async () => {
      await postMeta(
        messaging('instagram', IG, {
          ...customer,
          message: {
            mid: 'aWdfSTORY-REPLY-1',
            text: 'Love this colour!',
            reply_to: {
              story: { url: 'https://lookaside.fbsbx.com/ig_messaging_cdn/?asset_id=1', id: '1790001' },
            },
          },
        }),
      );
      await postMeta(
        messaging('instagram', IG, {
          ...customer,
          message: {
            mid: 'aWdfSTORY-MENTION-1',
            attachments: [{ type: 'story_mention', payload: { url: 'http://cdn.example/story.mp4' } }],
          },
        }),
      );
      const [reply] = await messagesByProviderId(t, 'instagram', 'aWdfSTORY-REPLY-1');
      expect(reply).toMatchObject({ message: 'Love this colour!' });
      expect(reply!.meta).toMatchObject({
        story: {
          kind: 'reply',
          url: 'https://lookaside.fbsbx.com/ig_messaging_cdn/?asset_id=1',
          id: '1790001',
        },
      });
      const [mention] = await messagesByProviderId(t, 'instagram', 'aWdfSTORY-MENTION-1');
      expect(mention!.meta).toMatchObject({ story: { kind: 'mention' } });
      expect((mention!.meta as { story: { url?: string } }).story.url).toBeUndefined();
    });
    it('clears an unsent message, keeps its row, tells open inboxes once, and ignores an unknown mid', async () => {
      await postMeta(
        messaging('instagram', IG, {
          ...customer,
          message: {
            mid: 'aWdfUNSEND-1',
            text: 'My address is 1 Secret St',
            attachments: [
              { type: 'image', payload: { url: 'https://lookaside.fbsbx.com/ig_messaging_cdn/?asset_id=2' } },
            ],
          },
        }),
      );
      const [sent] = await messagesByProviderId(t, 'instagram', 'aWdfUNSEND-1');
      expect(sent!.message).toBe('My address is 1 Secret St');
      const updates: { id: string; message: string }[] = [];
      const listen = ({ message }: { message: { id: string; message: string } }) => updates.push(message);
      t.app.events.on('message.updated', listen);
      try {
        const unsend = messaging('instagram', IG, {
          ...customer,
          message: { mid: 'aWdfUNSEND-1', is_deleted: true },
        });
        expect((await postMeta(unsend)).statusCode).toBe(200);
        const [gone] = await messagesByProviderId(t, 'instagram', 'aWdfUNSEND-1');
        expect(gone).toMatchObject({ id: sent!.id, message: '', attachments: [] });
        const at = (gone!.meta as { unsent_at?: string }).unsent_at;
        expect(new Date(at ?? '').toISOString()).toBe(at);
        expect(updates.filter((u) => u.id === sent!.id)).toEqual([expect.objectContaining({ message: '' })]);

        // A repeat and an unknown mid change nothing.
        expect((await postMeta(unsend)).statusCode).toBe(200);
        const before = await countMessages(t);
        const unknown = messaging('instagram', IG, {
          ...customer,
          message: { mid: 'aWdfNEVER-SEEN', is_deleted: true },
        });
        expect((await postMeta(unknown)).statusCode).toBe(200);
        expect(await countMessages(t)).toBe(before);
        const [again] = await messagesByProviderId(t, 'instagram', 'aWdfUNSEND-1');
        expect((again!.meta as { unsent_at?: string }).unsent_at).toBe(at);
        expect(updates.filter((u) => u.id === sent!.id)).toHaveLength(1);
      } finally {
        t.app.events.off('message.updated', listen);
      }
    });
    it("never touches another business's message with the same id", async () => {
      await postMeta(
        messaging('instagram', IG, { ...customer, message: { mid: 'aWdfOTHER-1', text: 'Keep me' } }),
      );
      const [mine] = await messagesByProviderId(t, 'instagram', 'aWdfOTHER-1');
      const otherBusiness = '01a00000-0000-7000-8000-000000000001';
      const input = { provider: 'instagram', provider_message_id: 'aWdfOTHER-1', at: new Date() };
      expect(await applyUnsend(t.app, { ...input, business_id: otherBusiness })).toBe(false);
      const [after] = await messagesByProviderId(t, 'instagram', 'aWdfOTHER-1');
      expect(after).toMatchObject({ message: 'Keep me', meta: mine!.meta });
    });
  });

  describe('customer names from the User Profile API', () => {
    const nameOf = async (provider: string, mid: string) => {
      const [m] = await messagesByProviderId(t, provider, mid);
      return m ? customerById(t, m.customer_id) : undefined;
    };

    it('names a new Messenger customer with the page token, after the webhook has answered', async () => {
      fake.on('GET', '/v24.0/7100000000000001', {
        delayMs: 300,
        json: { first_name: 'María', last_name: 'López', id: '7100000000000001' },
      });
      const res = await postMeta(
        messaging('page', '100000000000010', {
          sender: { id: '7100000000000001' },
          recipient: { id: '100000000000010' },
          message: { mid: 'm_PROFILE-1', text: 'Hola' },
        }),
      );
      expect(res.statusCode).toBe(200);
      // Stored unnamed; the name follows.
      expect((await nameOf('messenger', 'm_PROFILE-1'))?.name ?? null).toBeNull();
      const named = await eventually(async () => {
        const c = await nameOf('messenger', 'm_PROFILE-1');
        return c?.name ? c : undefined;
      });
      expect(named).toMatchObject({ name: 'María López', first_name: 'María' });
      const [lookup] = fake.received('GET', '/v24.0/7100000000000001');
      expect(lookup!.headers.authorization).toBe(`Bearer ${PAGE_TOKEN}`);
      expect(lookup!.url.searchParams.get('fields')).toBe('first_name,last_name');

      const list = await t.request({
        method: 'GET',
        url: `/api/v1/enquiries?location_id=${loc2}&channels=facebook&page_size=50`,
        token: owner,
      });
      const row = list.json().body.items.find((e: { customer_id: string }) => e.customer_id === named.id);
      expect(row.customer.name).toBe('María López');
    });

    it('names an Instagram customer by their username when they have no name', async () => {
      fake.on('GET', '/v24.0/1000000000000000077', { json: { name: null, username: 'perth.shipper' } });
      await postMeta(
        messaging('instagram', '17841400000000001', {
          sender: { id: '1000000000000000077' },
          recipient: { id: '17841400000000001' },
          message: { mid: 'aWdfPROFILE-1', text: 'Hi!' },
        }),
      );
      const named = await eventually(async () => {
        const c = await nameOf('instagram', 'aWdfPROFILE-1');
        return c?.name ? c : undefined;
      });
      expect(named).toMatchObject({ name: '@perth.shipper', first_name: '@perth.shipper' });
      expect(fake.received('GET', '/v24.0/1000000000000000077')[0]!.headers.authorization).toBe(
        `Bearer ${IG_TOKEN}`,
      );
    });

    it('leaves the customer unnamed when Meta refuses, and the message is kept', async () => {
      fake.on('GET', '/v24.0/7100000000000002', {
        status: 400,
        json: { error: { message: 'User consent is required to access user profile', code: 2018218 } },
      });
      await postMeta(
        messaging('page', '100000000000010', {
          sender: { id: '7100000000000002' },
          recipient: { id: '100000000000010' },
          message: { mid: 'm_PROFILE-2', text: 'Hello?' },
        }),
      );
      // The lookup job has finished, refused: nothing more will name them.
      await jobsSettled(t, customerProfile, { data: { external_id: '7100000000000002' } });
      const c = await nameOf('messenger', 'm_PROFILE-2');
      expect(c).toBeDefined();
      expect(c!.name ?? null).toBeNull();
    });
  });
});
