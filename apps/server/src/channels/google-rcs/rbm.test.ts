import { generateKeyPairSync } from 'node:crypto';
import { jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ChannelSuite,
  connect,
  countMessages,
  customerById,
  enquiryOf,
  type FakeProvider,
  fixtureBytes,
  fixtureJson,
  messageById,
  messagesByProviderId,
  messageWithMedia,
  RBM_TOKEN,
  SETUP_TIMEOUT_MS,
  SUITE_TIMEOUTS,
  startChannelSuite,
} from '../../modules/channels/test-support.ts';
import { GOOGLE_ACCESS_TOKEN } from '../../test/fake-owners.ts';
import { eventually, type TestApp } from '../../test/helpers.ts';
import { googSignature, verifyGoogSignature } from './signature.ts';

const AGENT = 'fixture_agent_0001@rbm.goog';
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const SERVICE_ACCOUNT = {
  type: 'service_account',
  private_key_id: 'fixturekeyid0001',
  private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  client_email: 'rbm-agent@rbm-fixture.iam.gserviceaccount.com',
};
const AGENT_MESSAGES = /^\/v1\/phones\/[^/]+\/agentMessages$/;

type Signatures = { files: Record<string, { 'X-Goog-Signature': string; decodedDataUtf8: string }> };

/** An RBM push envelope around a UserMessage/UserEvent, and its X-Goog-Signature. */
function push(payload: Record<string, unknown>, token = RBM_TOKEN) {
  const decoded = JSON.stringify({ agentId: AGENT, sendTime: new Date().toISOString(), ...payload });
  const body = JSON.stringify({
    message: {
      attributes: {},
      data: Buffer.from(decoded).toString('base64'),
      messageId: String(Date.now()),
      publishTime: new Date().toISOString(),
    },
    subscription: 'projects/rbm-fixture-agent-0001/subscriptions/rbm-fixture-agent-0001',
  });
  return { body, signature: googSignature(token, decoded) };
}

describe('X-Goog-Signature', () => {
  it('is HMAC-SHA512 over the decoded message.data, base64 (fixture worked example)', () => {
    const sigs = fixtureJson<Signatures>('google-rbm/_signatures.json');
    const f = sigs.files['user-message-text.push.json']!;
    const body = JSON.parse(fixtureBytes('google-rbm/user-message-text.push.json').toString('utf8'));
    const decoded = Buffer.from(body.message.data, 'base64');
    expect(decoded.toString('utf8')).toBe(f.decodedDataUtf8);
    expect(verifyGoogSignature(RBM_TOKEN, decoded, f['X-Goog-Signature'])).toBe(true);
    expect(verifyGoogSignature('ANOTHERTOKEN', decoded, f['X-Goog-Signature'])).toBe(false);
    // Not over the HTTP body.
    expect(
      verifyGoogSignature(
        RBM_TOKEN,
        fixtureBytes('google-rbm/user-message-text.push.json'),
        f['X-Goog-Signature'],
      ),
    ).toBe(false);
  });
});

describe('Google RCS Business Messaging', SUITE_TIMEOUTS, () => {
  let suite: ChannelSuite;
  let fake: FakeProvider;
  let t: TestApp;
  let owner: string;
  let staff: string;
  let loc1: string;
  let enquiryId: string;

  const post = (body: string | Buffer, signature: string | null) =>
    t.request({
      method: 'POST',
      url: '/webhooks/google-rcs',
      headers: {
        'content-type': 'application/json',
        ...(signature ? { 'x-goog-signature': signature } : {}),
      },
      payload: body,
    });
  const send = (payload: object) =>
    t.request({ method: 'POST', url: `/api/v1/enquiries/${enquiryId}/messages`, token: staff, payload });
  const settled = (id: string) =>
    eventually(async () => {
      const m = await messageById(t, id);
      return m.status !== 'queued' && m;
    }, 40_000);

  beforeAll(async () => {
    suite = await startChannelSuite();
    ({ fake, t, owner, staff } = suite);
    [loc1] = suite.locations;
    await connect(t, owner, {
      location_id: loc1,
      provider: 'google_rcs',
      config: { agent_id: AGENT, client_token: RBM_TOKEN, service_account_json: SERVICE_ACCOUNT },
    });
  }, SETUP_TIMEOUT_MS);
  afterAll(() => suite.close(), SETUP_TIMEOUT_MS);

  it('answers the webhook verification request with its secret when the client token is ours', async () => {
    const ok = await post(fixtureBytes('google-rbm/webhook-verification.request.json'), null);
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toBe('1234567890');
    const wrong = await post(JSON.stringify({ clientToken: 'NOT-OURS', secret: '1234567890' }), null);
    expect(wrong.statusCode).toBe(403);
  });

  it('accepts the text fixture, stores it once, and refuses tampered or unsigned pushes', async () => {
    const raw = fixtureBytes('google-rbm/user-message-text.push.json');
    const sig = fixtureJson<Signatures>('google-rbm/_signatures.json').files['user-message-text.push.json']![
      'X-Goog-Signature'
    ];
    const before = await countMessages(t);
    expect((await post(raw, null)).statusCode).toBe(403);
    const forged = push({ senderPhoneNumber: '+61491570006', messageId: 'forged-1', text: 'Refund me' });
    expect((await post(forged.body, sig)).statusCode).toBe(403);
    expect((await post(forged.body, googSignature('ANOTHERTOKEN', 'x'))).statusCode).toBe(403);
    expect(await countMessages(t)).toBe(before);

    const res = await post(raw, sig);
    expect(res.statusCode, res.body).toBe(200);
    expect((await post(raw, sig)).statusCode).toBe(200);
    const found = await messagesByProviderId(t, 'google_rcs', 'a1b2c3d4-0000-4000-8000-000000000001');
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      channel: 'google_rcs',
      message: 'Can I change my delivery to Monday? 🚚',
    });
    expect(found[0]!.created_at.toISOString()).toBe('2026-01-01T00:00:05.123Z');
    expect((await customerById(t, found[0]!.customer_id)).phone).toBe('+61491570006');
    const e = await enquiryOf(t, found[0]!.enquiry_id);
    expect(e).toMatchObject({ location_id: loc1, channel: 'google_rcs' });
    enquiryId = e.id;
  });

  it('answers 200 and stores nothing for an agent not connected; 400 for malformed pushes', async () => {
    const before = await countMessages(t);
    const other = push({
      agentId: 'someone_else@rbm.goog',
      senderPhoneNumber: '+61491570006',
      messageId: 'x-1',
      text: 'hi',
    });
    expect((await post(other.body, other.signature)).statusCode).toBe(200);
    expect((await post('not json', 'sig')).statusCode).toBe(400);
    expect(
      (await post(JSON.stringify({ message: { data: Buffer.from('not json').toString('base64') } }), 'sig'))
        .statusCode,
    ).toBe(400);
    expect((await post(JSON.stringify({ message: {} }), 'sig')).statusCode).toBe(400);
    expect(await countMessages(t)).toBe(before);
  });

  it('stores files (downloaded into uploads) and suggestion replies', async () => {
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 7, 7]);
    fake.on('GET', '/rbm-files/photo.jpg', { body: jpeg, headers: { 'content-type': 'image/jpeg' } });
    const file = push({
      senderPhoneNumber: '+61491570006',
      messageId: 'rbm-file-1',
      userFile: {
        payload: {
          mimeType: 'image/jpeg',
          fileSizeBytes: jpeg.length,
          fileName: 'photo.jpg',
          fileUri: `${fake.url}/rbm-files/photo.jpg`,
        },
      },
    });
    expect((await post(file.body, file.signature)).statusCode).toBe(200);
    const m = await messageWithMedia(t, 'google_rcs', 'rbm-file-1');
    expect(m!.attachments).toMatchObject([
      { name: 'photo.jpg', content_type: 'image/jpeg', size: jpeg.length },
    ]);
    const reply = push({
      senderPhoneNumber: '+61491570006',
      messageId: 'rbm-suggestion-1',
      suggestionResponse: { postbackData: 'slot_monday_am', text: 'Monday morning', type: 'REPLY' },
    });
    await post(reply.body, reply.signature);
    const [s] = await messagesByProviderId(t, 'google_rcs', 'rbm-suggestion-1');
    expect(s).toMatchObject({ message: 'Monday morning', meta: { payload: 'slot_monday_am' } });
  });

  it('sends agent messages with a service-account token, keyed by our message id; DELIVERED and READ move it on', async () => {
    // The access token comes from the fake Google, which checked the key when the agent was connected.
    fake.on('POST', AGENT_MESSAGES, (req) => ({
      json: { name: `phones/+61491570006/agentMessages/${req.url.searchParams.get('messageId')}` },
    }));
    const res = await send({ message: 'Monday works. See you then!' });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().body.id as string;
    expect(await settled(id)).toMatchObject({
      status: 'sent',
      provider: 'google_rcs',
      provider_message_id: id,
    });

    const [token] = fake.received('POST', '/token');
    const form = token!.form();
    expect(form.get('grant_type')).toBe('urn:ietf:params:oauth:grant-type:jwt-bearer');
    const { payload, protectedHeader } = await jwtVerify(form.get('assertion')!, publicKey, {
      audience: `${fake.url}/token`,
      issuer: SERVICE_ACCOUNT.client_email,
    });
    expect(protectedHeader).toMatchObject({ alg: 'RS256', kid: 'fixturekeyid0001' });
    expect(payload.scope).toBe('https://www.googleapis.com/auth/rcsbusinessmessaging');

    const [req] = fake.received('POST', AGENT_MESSAGES);
    expect(decodeURIComponent(req!.path)).toBe('/v1/phones/+61491570006/agentMessages');
    expect(Object.fromEntries(req!.url.searchParams)).toEqual({ messageId: id, agentId: AGENT });
    expect(req!.headers.authorization).toBe(`Bearer ${GOOGLE_ACCESS_TOKEN}`);
    expect(req!.json()).toEqual({ contentMessage: { text: 'Monday works. See you then!' } });

    const read = push({
      senderPhoneNumber: '+61491570006',
      eventType: 'READ',
      eventId: 'ev-2',
      messageId: id,
    });
    const delivered = push({
      senderPhoneNumber: '+61491570006',
      eventType: 'DELIVERED',
      eventId: 'ev-1',
      messageId: id,
    });
    expect((await post(delivered.body, delivered.signature)).statusCode).toBe(200);
    expect((await messageById(t, id)).status).toBe('delivered');
    await post(read.body, read.signature);
    await post(delivered.body, delivered.signature);
    expect((await messageById(t, id)).status).toBe('read');
    const typing = push({ senderPhoneNumber: '+61491570006', eventType: 'IS_TYPING', eventId: 'ev-3' });
    expect((await post(typing.body, typing.signature)).statusCode).toBe(200);

    // A retry after a lost answer is recognised by RBM (409) and counts as sent; the token is reused.
    fake.on('POST', AGENT_MESSAGES, {
      status: 409,
      json: { error: { code: 409, status: 'ALREADY_EXISTS' } },
    });
    const again = (await send({ message: 'Duplicate-safe' })).json().body.id as string;
    expect(await settled(again)).toMatchObject({ status: 'sent', provider_message_id: again });
    expect(fake.received('POST', '/token')).toHaveLength(1);
  });

  it("fails with a plain reason when the customer's phone cannot receive RCS", async () => {
    fake.on('POST', AGENT_MESSAGES, {
      status: 404,
      json: { error: { code: 404, message: 'Requested entity was not found.', status: 'NOT_FOUND' } },
    });
    const id = (await send({ message: 'Hello?' })).json().body.id as string;
    expect(await settled(id)).toMatchObject({
      status: 'failed',
      error: "This phone can't receive RCS messages (the customer's device or carrier doesn't support RCS).",
    });
  });
});
