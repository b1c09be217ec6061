import { generateKeyPairSync } from 'node:crypto';
import { auditLog, channelAccounts, enquiries } from '@switchboard/db';
import { and, eq } from 'drizzle-orm';
import { uuidv7 } from 'uuidv7';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { googSignature } from '../../channels/google-rcs/signature.ts';
import { hubSignature } from '../../channels/meta/signature.ts';
import { encryptJson } from '../../lib/crypto.ts';
import { DEMO_LOGINS, getMe, inbound, type Json } from '../../test/helpers.ts';
import {
  accountRow,
  type ChannelSuite,
  connect,
  enquiryOf,
  messagesByProviderId,
  postTwilio,
  SETUP_TIMEOUT_MS,
  SUITE_TIMEOUTS,
  startChannelSuite,
  TWILIO_SID,
  TWILIO_TOKEN,
} from './test-support.ts';

const NUMBER = '+61491570300';
const ATTACKER = { sid: `AC${'e'.repeat(32)}`, token: 'e'.repeat(32), number: '+15555550299' };
const PAGE = '100000000000555';
const REAL_PAGE = { token: 'EAAGrealpage0001', secret: 'r'.repeat(32) };
const WA = {
  phone: '100000000000777',
  waba: '100000000000888',
  token: 'EAAGrealwa0001',
  secret: 'w'.repeat(32),
};
const THIEF = { token: 'EAAGattacker0001', secret: 'a'.repeat(32) };

const serviceAccount = (email: string) => {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return JSON.stringify({
    type: 'service_account',
    private_key_id: `key-of-${email}`,
    private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    client_email: email,
  });
};

/**
 * Whose number, page or agent an account may receive on: the provider says, before anything is reserved; an
 * account saved before that check never keeps the real owner out.
 */
describe('claiming a number, page or agent', SUITE_TIMEOUTS, () => {
  let s: ChannelSuite;
  let north: string;
  let northBusiness: string;
  let northLoc: string;
  let harbourBusiness: string;

  const channels = async (token: string) =>
    (await s.t.request({ method: 'GET', url: '/api/v1/channels', token })).json().body.items as Json[];
  const claim = (token: string, location_id: string, provider: string, config: Record<string, unknown>) =>
    s.t.request({
      method: 'POST',
      url: '/api/v1/channels',
      token,
      payload: { location_id, provider, config },
    });
  /** An account as saved before the provider was asked (what the migration leaves): never confirmed. */
  const unproven = async (row: {
    provider: string;
    address: string;
    config: Record<string, unknown>;
    secrets: Record<string, unknown>;
  }) => {
    const id = uuidv7();
    await s.t.database.db.insert(channelAccounts).values({
      id,
      business_id: northBusiness,
      location_id: northLoc,
      provider: row.provider,
      address: row.address,
      config: row.config,
      secrets_encrypted: encryptJson(s.t.config.encryptionKey, row.secrets, `channel_account:${id}`),
    });
    return id;
  };
  const messengerPush = (mid: string, secret: string) => {
    const body = JSON.stringify({
      object: 'page',
      entry: [
        {
          id: PAGE,
          time: Date.now(),
          messaging: [
            {
              sender: { id: '7000000000000555' },
              recipient: { id: PAGE },
              timestamp: Date.now(),
              message: { mid, text: 'Do you have a table for two tonight?' },
            },
          ],
        },
      ],
    });
    return s.t.request({
      method: 'POST',
      url: '/webhooks/meta',
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': hubSignature(secret, body) },
      payload: body,
    });
  };
  const whatsappPush = (id: string, secret: string) => {
    const body = JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: WA.waba,
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: '61491570777', phone_number_id: WA.phone },
                contacts: [{ profile: { name: 'Wren' }, wa_id: '61491570077' }],
                messages: [
                  {
                    from: '61491570077',
                    id,
                    timestamp: '1767225600',
                    type: 'text',
                    text: { body: 'Hi there' },
                  },
                ],
              },
            },
          ],
        },
      ],
    });
    return s.t.request({
      method: 'POST',
      url: '/webhooks/meta',
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': hubSignature(secret, body) },
      payload: body,
    });
  };
  /** Where a stored message went: its conversation's business and location. */
  const placeOf = async (provider: string, id: string) => {
    const [m] = await messagesByProviderId(s.t, provider, id);
    if (!m) return null;
    const e = await enquiryOf(s.t, m.enquiry_id);
    return { business_id: e.business_id, location_id: e.location_id };
  };
  /** The account was disconnected, its owner is told on it and in the audit log. */
  const expectDisplaced = async (id: string, provider: string, address: string) => {
    expect((await accountRow(s.t, id)).displaced_at).toBeInstanceOf(Date);
    const item = (await channels(north)).find((c) => c.id === id)!;
    expect(item.disconnected_at).toEqual(expect.any(String));
    expect(item.problem).toMatch(/^Disconnected on \d{4}-\d\d-\d\d: another business showed /);
    expect(item.problem).toContain(`showed ${provider} that ${address} is theirs`);
    const audit = await s.t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.business_id, northBusiness), eq(auditLog.action, 'channel.displaced')));
    expect(audit.find((a) => a.target === id)).toMatchObject({ user_id: null, detail: { address } });
  };

  beforeAll(async () => {
    s = await startChannelSuite();
    north = await s.t.login(DEMO_LOGINS.northsideOwner);
    const northMe = (await getMe(s.t, north)).businesses.find((b) => b.selected)!;
    northBusiness = northMe.id;
    northLoc = northMe.locations[0]!.id;
    harbourBusiness = (await getMe(s.t, s.owner)).businesses.find((b) => b.selected)!.id;
    // At the providers: Harbourside owns the number, the Page and the WhatsApp number; the attacker has
    // accounts and tokens of their own that own none of them.
    s.fake.owners
      .twilio(TWILIO_SID, TWILIO_TOKEN, { numbers: [NUMBER] })
      .twilio(ATTACKER.sid, ATTACKER.token, { numbers: [ATTACKER.number] })
      .meta(REAL_PAGE.token, { appSecret: REAL_PAGE.secret, page: { id: PAGE } })
      .meta(WA.token, { appSecret: WA.secret, whatsapp: { phone_number_id: WA.phone, waba_id: WA.waba } })
      .meta(THIEF.token, { appSecret: THIEF.secret, page: { id: '100000000000666' } })
      .meta(THIEF.token, { appSecret: THIEF.secret, whatsapp: { phone_number_id: '100000000000999' } });
  }, SETUP_TIMEOUT_MS);
  afterAll(() => s.close(), SETUP_TIMEOUT_MS);

  it("refuses a Twilio number the claimant's account does not own; the real owner takes it from an unproven claim and its signed texts arrive", async () => {
    const attack = await claim(north, northLoc, 'twilio', {
      account_sid: ATTACKER.sid,
      auth_token: ATTACKER.token,
      phone_number: NUMBER,
    });
    expect(attack.statusCode).toBe(422);
    expect(attack.json().message).toMatch(/^\+61491570300 is not a phone number of this Twilio account/);
    expect(await channels(north)).toEqual([]);

    // Saved before the check: the attacker's account holds the number, and the real owner's texts are refused.
    const held = await unproven({
      provider: 'twilio',
      address: NUMBER,
      config: { account_sid: ATTACKER.sid, phone_number: NUMBER },
      secrets: { auth_token: ATTACKER.token },
    });
    const text = (sid: string, token: string) =>
      postTwilio(
        s.t,
        '/webhooks/twilio/messaging',
        {
          AccountSid: TWILIO_SID,
          MessageSid: sid,
          From: '+61491570301',
          To: NUMBER,
          Body: 'Hello?',
          NumMedia: '0',
        },
        { token },
      );
    expect((await text('SM00000000000000000000000000claim0', TWILIO_TOKEN)).statusCode).toBe(403);

    const owned = await connect(s.t, s.owner, {
      location_id: s.locations[0],
      provider: 'twilio',
      config: { account_sid: TWILIO_SID, auth_token: TWILIO_TOKEN, phone_number: NUMBER },
    });
    expect(owned).toMatchObject({ address: NUMBER, verified_at: expect.any(String), problem: null });
    await expectDisplaced(held, 'Twilio', NUMBER);
    const reach = await s.t.request({
      method: 'GET',
      url: `/api/v1/channels/reach?location_id=${northLoc}`,
      token: north,
    });
    expect(reach.json().body.items).toContainEqual(
      expect.objectContaining({ address: NUMBER, via: 'Disconnected', starts_conversations: false }),
    );

    expect((await text('SM00000000000000000000000000claim1', TWILIO_TOKEN)).statusCode).toBe(200);
    expect(await placeOf('twilio', 'SM00000000000000000000000000claim1')).toEqual({
      business_id: harbourBusiness,
      location_id: s.locations[0],
    });
    // The attacker's token no longer signs for the number.
    expect((await text('SM00000000000000000000000000claim2', ATTACKER.token)).statusCode).toBe(403);
    expect(await messagesByProviderId(s.t, 'twilio', 'SM00000000000000000000000000claim2')).toEqual([]);

    // A second business proving the same number later is refused: it is connected to another business.
    await s.t.database.db.delete(channelAccounts).where(eq(channelAccounts.id, held));
    s.fake.owners.twilio(TWILIO_SID, TWILIO_TOKEN, { numbers: [NUMBER] });
    const later = await claim(north, northLoc, 'twilio', {
      account_sid: TWILIO_SID,
      auth_token: TWILIO_TOKEN,
      phone_number: NUMBER,
    });
    expect(later.statusCode).toBe(409);
    expect(later.json().message).toMatch(/is connected to another business/);
  });

  it("refuses a Facebook Page the claimant's token is not for; the real owner takes it from an unproven claim and its signed messages arrive", async () => {
    const attack = await claim(north, northLoc, 'messenger', {
      page_id: PAGE,
      page_access_token: THIEF.token,
      app_secret: THIEF.secret,
      verify_token: 'thief-verify',
    });
    expect(attack.statusCode).toBe(422);
    expect(attack.json().message).toMatch(/^This Page access token is not a token of Page 100000000000555/);

    const held = await unproven({
      provider: 'messenger',
      address: PAGE,
      config: { page_id: PAGE },
      secrets: { page_access_token: THIEF.token, app_secret: THIEF.secret, verify_token: 'thief-verify' },
    });
    expect((await messengerPush('m_CLAIM-0', REAL_PAGE.secret)).statusCode).toBe(403);

    // The right token with another app's secret is refused too: that secret would not sign Meta's webhooks.
    const wrongSecret = await claim(s.owner, s.locations[0], 'messenger', {
      page_id: PAGE,
      page_access_token: REAL_PAGE.token,
      app_secret: 'f'.repeat(32),
      verify_token: 'harbour-verify',
    });
    expect(wrongSecret.statusCode).toBe(422);
    expect(wrongSecret.json().message).toMatch(/^The App Secret is not the secret of the app/);

    const owned = await connect(s.t, s.owner, {
      location_id: s.locations[0],
      provider: 'messenger',
      config: {
        page_id: PAGE,
        page_access_token: REAL_PAGE.token,
        app_secret: REAL_PAGE.secret,
        verify_token: 'harbour-verify',
      },
    });
    expect(owned.verified_at).toEqual(expect.any(String));
    await expectDisplaced(held, 'Messenger', PAGE);
    expect((await messengerPush('m_CLAIM-1', REAL_PAGE.secret)).statusCode).toBe(200);
    expect(await placeOf('messenger', 'm_CLAIM-1')).toEqual({
      business_id: harbourBusiness,
      location_id: s.locations[0],
    });
    expect((await messengerPush('m_CLAIM-2', THIEF.secret)).statusCode).toBe(403);
    await s.t.database.db.delete(channelAccounts).where(eq(channelAccounts.id, held));
  });

  it('refuses a WhatsApp number the claimant cannot reach; the real owner takes it from an unproven claim and its signed messages arrive', async () => {
    const attack = await claim(north, northLoc, 'whatsapp', {
      phone_number_id: WA.phone,
      access_token: THIEF.token,
      app_secret: THIEF.secret,
      verify_token: 'thief-verify',
    });
    expect(attack.statusCode).toBe(422);
    expect(attack.json().message).toMatch(/^This access token cannot reach WhatsApp number 100000000000777/);

    const held = await unproven({
      provider: 'whatsapp',
      address: WA.phone,
      config: { phone_number_id: WA.phone, waba_id: WA.waba },
      secrets: { access_token: THIEF.token, app_secret: THIEF.secret, verify_token: 'thief-verify' },
    });
    expect((await whatsappPush('wamid.CLAIM-0', WA.secret)).statusCode).toBe(403);

    const owned = await connect(s.t, s.owner, {
      location_id: s.locations[1],
      provider: 'whatsapp',
      config: {
        phone_number_id: WA.phone,
        waba_id: WA.waba,
        access_token: WA.token,
        app_secret: WA.secret,
        verify_token: 'harbour-wa',
      },
    });
    expect(owned.verified_at).toEqual(expect.any(String));
    await expectDisplaced(held, 'WhatsApp', WA.phone);
    expect((await whatsappPush('wamid.CLAIM-1', WA.secret)).statusCode).toBe(200);
    expect(await placeOf('whatsapp', 'wamid.CLAIM-1')).toEqual({
      business_id: harbourBusiness,
      location_id: s.locations[1],
    });
  });

  it('lets two businesses enter one RCS agent (nobody can prove it): each push goes to the account whose token signed it', async () => {
    const agent = 'shared_agent@rbm.goog';
    const northKey = serviceAccount('north@rbm-north.iam.gserviceaccount.com');
    const harbourKey = serviceAccount('harbour@rbm-harbour.iam.gserviceaccount.com');
    await connect(s.t, north, {
      location_id: northLoc,
      provider: 'google_rcs',
      config: { agent_id: agent, client_token: 'NORTHCLIENTTOKEN01', service_account_json: northKey },
    });
    const harbour = await connect(s.t, s.owner, {
      location_id: s.locations[1],
      provider: 'google_rcs',
      config: { agent_id: agent, client_token: 'HARBOURCLIENTTOKEN1', service_account_json: harbourKey },
    });
    expect(harbour).toMatchObject({ verified_at: null, problem: null });
    // A key Google does not accept is refused outright.
    const forged = await claim(s.owner, s.locations[0], 'google_rcs', {
      agent_id: agent,
      client_token: 'FORGEDTOKEN0001',
      service_account_json: serviceAccount('forged@nowhere.iam.gserviceaccount.com'),
    });
    expect(forged.statusCode).toBe(422);
    expect(forged.json().message).toMatch(/^Google refused the service account/);

    const push = (id: string, token: string) => {
      const decoded = JSON.stringify({
        agentId: agent,
        senderPhoneNumber: '+61491570066',
        messageId: id,
        sendTime: new Date().toISOString(),
        text: 'Is this the clinic?',
      });
      return s.t.request({
        method: 'POST',
        url: '/webhooks/google-rcs',
        headers: { 'content-type': 'application/json', 'x-goog-signature': googSignature(token, decoded) },
        payload: JSON.stringify({
          message: { data: Buffer.from(decoded).toString('base64'), messageId: id },
        }),
      });
    };
    expect((await push('rbm-claim-harbour', 'HARBOURCLIENTTOKEN1')).statusCode).toBe(200);
    expect((await push('rbm-claim-north', 'NORTHCLIENTTOKEN01')).statusCode).toBe(200);
    expect((await push('rbm-claim-nobody', 'SOMEONEELSE00001')).statusCode).toBe(403);
    expect(await placeOf('google_rcs', 'rbm-claim-harbour')).toEqual({
      business_id: harbourBusiness,
      location_id: s.locations[1],
    });
    expect(await placeOf('google_rcs', 'rbm-claim-north')).toEqual({
      business_id: northBusiness,
      location_id: northLoc,
    });
    expect(await messagesByProviderId(s.t, 'google_rcs', 'rbm-claim-nobody')).toEqual([]);
  });

  it("gives two businesses the same sandbox number without a clash: each simulator's texts stay in its business", async () => {
    const buy = (token: string, location: string) =>
      s.t.request({ method: 'POST', url: `/api/v1/business/locations/purchase-number/${location}`, token });
    const northNumber = await buy(north, northLoc);
    const harbourNumber = await buy(s.owner, s.locations[1]);
    expect(northNumber.statusCode, northNumber.body).toBe(200);
    expect(harbourNumber.statusCode, harbourNumber.body).toBe(200);
    expect(northNumber.json().body).toMatchObject({ provider: 'sandbox', phone_number: '+61491570000' });
    expect(harbourNumber.json().body).toMatchObject({ provider: 'sandbox', phone_number: '+61491570000' });

    const fromCustomer = { phone: '+61491570042' };
    const toNorth = await inbound(s.t, north, {
      location_id: northLoc,
      from: fromCustomer,
      message: 'Leaking tap',
    });
    const toHarbour = await inbound(s.t, s.owner, {
      location_id: s.locations[1],
      from: fromCustomer,
      message: 'Check-up please',
    });
    const [n] = await s.t.database.db.select().from(enquiries).where(eq(enquiries.id, toNorth.enquiry_id));
    const [h] = await s.t.database.db.select().from(enquiries).where(eq(enquiries.id, toHarbour.enquiry_id));
    expect(n).toMatchObject({ business_id: northBusiness, location_id: northLoc });
    expect(h).toMatchObject({ business_id: harbourBusiness, location_id: s.locations[1] });
    // Neither business reaches the other's conversation.
    const peek = await s.t.request({
      method: 'GET',
      url: `/api/v1/enquiries/${toHarbour.enquiry_id}`,
      token: north,
    });
    expect(peek.statusCode).toBe(404);
  });
});
