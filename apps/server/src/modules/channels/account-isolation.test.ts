import { channelAccounts } from '@switchboard/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hubSignature } from '../../channels/meta/signature.ts';
import { decryptJson, encryptJson } from '../../lib/crypto.ts';
import { DEMO_LOGINS, getMe, namedIn } from '../../test/helpers.ts';
import {
  accountRow,
  type ChannelSuite,
  connect,
  messagesByProviderId,
  postTwilio,
  SETUP_TIMEOUT_MS,
  SUITE_TIMEOUTS,
  startChannelSuite,
  TWILIO_SID,
  TWILIO_TOKEN,
} from './test-support.ts';

/** One business's channel account must never break another's, nor be broken by how an id is spelled. */
describe('channel accounts stay readable and separate', SUITE_TIMEOUTS, () => {
  let s: ChannelSuite;
  let northOwner: string;
  let northLoc: string;

  beforeAll(async () => {
    s = await startChannelSuite();
    northOwner = await s.t.login(DEMO_LOGINS.northsideOwner);
    northLoc = (await getMe(s.t, northOwner)).businesses.find((b) => b.selected)!.locations[0]!.id;
  }, SETUP_TIMEOUT_MS);
  afterAll(() => s.close(), SETUP_TIMEOUT_MS);

  it('saves an account edited through its id in upper case so it can still be read', async () => {
    const created = await connect(s.t, s.owner, {
      location_id: s.locations[0],
      provider: 'twilio',
      config: { account_sid: TWILIO_SID, auth_token: TWILIO_TOKEN, phone_number: '+61491570110' },
    });
    const res = await s.t.request({
      method: 'PATCH',
      url: `/api/v1/channels/${created.id.toUpperCase()}`,
      token: s.owner,
      payload: { location_id: s.locations[0].toUpperCase(), config: {} },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().body.id).toBe(created.id);

    const row = await accountRow(s.t, created.id);
    expect(
      decryptJson(s.t.config.encryptionKey, row.secrets_encrypted!, `channel_account:${created.id}`),
    ).toEqual({
      auth_token: TWILIO_TOKEN,
    });
    const list = await s.t.request({ method: 'GET', url: '/api/v1/channels', token: s.owner });
    expect(list.statusCode).toBe(200);
    expect(list.json().body.items[0]).toMatchObject({ id: created.id, problem: null });

    // Its number still receives.
    const inbound = await postTwilio(s.t, '/webhooks/twilio/messaging', {
      AccountSid: TWILIO_SID,
      MessageSid: 'SM0000000000000000000000000000upper',
      From: '+61491570999',
      To: '+61491570110',
      Body: 'Still there?',
      NumMedia: '0',
    });
    expect(inbound.statusCode).toBe(200);
    expect(await messagesByProviderId(s.t, 'twilio', 'SM0000000000000000000000000000upper')).toHaveLength(1);
  });

  it('refuses a Twilio account or WhatsApp Business Account that another business has connected', async () => {
    const claim = (auth_token: string) =>
      s.t.request({
        method: 'POST',
        url: '/api/v1/channels',
        token: northOwner,
        payload: {
          location_id: northLoc,
          provider: 'twilio',
          // The same account, spelled in upper case.
          config: {
            account_sid: `AC${TWILIO_SID.slice(2).toUpperCase()}`,
            auth_token,
            phone_number: '+61491570555',
          },
        },
      });
    // Without the account's Auth Token, Twilio says the credentials are not theirs.
    const guessed = await claim('another-token-0123456789');
    expect(guessed.statusCode).toBe(422);
    expect(guessed.json().message).toMatch(/^Twilio did not accept this Account SID and Auth Token/);
    // With it (the account does own the number), the account is still Harbourside's, confirmed first.
    s.fake.owners.twilio(TWILIO_SID, TWILIO_TOKEN, { numbers: ['+61491570555'] });
    const sameSid = await claim(TWILIO_TOKEN);
    expect(sameSid.statusCode).toBe(409);
    expect(sameSid.json().message).toMatch(
      /^This Twilio account \(AC\w+\) is connected to another business, and Twilio confirmed it is theirs/,
    );

    const meta = {
      app_secret: 'a'.repeat(32),
      verify_token: 'harbour-verify',
      access_token: 'EAAGharbour0000001',
    };
    await connect(s.t, s.owner, {
      location_id: s.locations[1],
      provider: 'whatsapp',
      config: { ...meta, phone_number_id: '100000000000201', waba_id: '100000000000301' },
    });
    // The same token reaches a second number of the same WhatsApp Business Account.
    s.fake.owners.meta(meta.access_token, {
      appSecret: meta.app_secret,
      whatsapp: { phone_number_id: '100000000000202', waba_id: '100000000000301' },
    });
    const sameWaba = await s.t.request({
      method: 'POST',
      url: '/api/v1/channels',
      token: northOwner,
      payload: {
        location_id: northLoc,
        provider: 'whatsapp',
        config: {
          ...meta,
          verify_token: 'north-verify',
          phone_number_id: '100000000000202',
          waba_id: '100000000000301',
        },
      },
    });
    expect(sameWaba.statusCode).toBe(409);
    expect(sameWaba.json().message).toMatch(
      /^This WhatsApp Business Account \(100000000000301\) is connected to another business, and WhatsApp confirmed it is theirs/,
    );
    expect(
      (await s.t.request({ method: 'GET', url: '/api/v1/channels', token: northOwner })).json().body.total,
    ).toBe(0);
  });

  it('one unreadable account fails only itself: other businesses verify and receive, its owner is told', async () => {
    const north = await connect(s.t, northOwner, {
      location_id: northLoc,
      provider: 'messenger',
      config: {
        page_id: '100000000000401',
        page_access_token: 'EAAGnorth0000001',
        app_secret: 'b'.repeat(32),
        verify_token: 'north-verify',
      },
    });
    // Damaged: sealed for another row, as a path spelled differently once did.
    await s.t.database.db
      .update(channelAccounts)
      .set({
        secrets_encrypted: encryptJson(
          s.t.config.encryptionKey,
          { page_access_token: 'x' },
          'channel_account:OTHER',
        ),
      })
      .where(eq(channelAccounts.id, north.id));

    // Meta's verification for Harbourside's WhatsApp still answers.
    const verify = await s.t.request({
      method: 'GET',
      url: '/webhooks/meta?hub.mode=subscribe&hub.verify_token=harbour-verify&hub.challenge=12345',
    });
    expect(verify.statusCode).toBe(200);
    expect(verify.body).toBe('12345');

    // Harbourside's Twilio status callbacks still work.
    const status = await postTwilio(s.t, '/webhooks/twilio/messaging/status', {
      AccountSid: TWILIO_SID,
      MessageSid: 'SM0000000000000000000000000000nonex',
      MessageStatus: 'delivered',
      From: '+61491570110',
    });
    expect(status.statusCode).toBe(200);

    // The damaged account's owner sees the list, with what to do about it.
    const list = await s.t.request({ method: 'GET', url: '/api/v1/channels', token: northOwner });
    expect(list.statusCode).toBe(200);
    const item = list.json().body.items.find((i: { id: string }) => i.id === north.id);
    expect(item.problem).toMatch(/cannot be read\. Enter them again/);
    expect(item.config).toMatchObject({ page_id: '100000000000401', page_access_token: null });

    // Entering the secrets again repairs it; leaving them out is refused with a message.
    const incomplete = await s.t.request({
      method: 'PATCH',
      url: `/api/v1/channels/${north.id}`,
      token: northOwner,
      payload: { config: { verify_token: 'north-verify' } },
    });
    expect(incomplete.statusCode).toBe(400);
    expect(namedIn(incomplete.json())).toMatch(/config.page_access_token/);
    // The owner makes a new Page token (and resets the App Secret) at Meta, and enters both.
    s.fake.owners.meta('EAAGnorth0000002', { appSecret: 'c'.repeat(32), page: { id: '100000000000401' } });
    const repaired = await s.t.request({
      method: 'PATCH',
      url: `/api/v1/channels/${north.id}`,
      token: northOwner,
      payload: {
        config: {
          page_access_token: 'EAAGnorth0000002',
          app_secret: 'c'.repeat(32),
          verify_token: 'north-verify',
        },
      },
    });
    expect(repaired.statusCode, repaired.body).toBe(200);
    expect(repaired.json().body.problem).toBeNull();
  });

  it("keeps a customer's message that carries a NUL or half an emoji, cleaned, instead of failing the webhook", async () => {
    const twilio = await postTwilio(s.t, '/webhooks/twilio/messaging', {
      AccountSid: TWILIO_SID,
      MessageSid: 'SM0000000000000000000000000000nulls',
      From: '+61491570998',
      To: '+61491570110',
      Body: 'Hi\u0000 there',
      NumMedia: '0',
    });
    expect(twilio.statusCode).toBe(200);
    const [sms] = await messagesByProviderId(s.t, 'twilio', 'SM0000000000000000000000000000nulls');
    expect(sms?.message).toBe('Hi there');

    // WhatsApp's JSON can carry an unpaired surrogate (an emoji cut in half) and a NUL escape.
    const body = JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: '100000000000301',
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: '61491570120', phone_number_id: '100000000000201' },
                contacts: [{ profile: { name: 'Zo\ud83d' }, wa_id: '61491570007' }],
                messages: [
                  {
                    from: '61491570007',
                    id: 'wamid.HALF-EMOJI-0001',
                    timestamp: '1767225600',
                    type: 'text',
                    text: { body: 'Open today? \ud83d\u0000' },
                  },
                ],
              },
            },
          ],
        },
      ],
    });
    const whatsapp = await s.t.request({
      method: 'POST',
      url: '/webhooks/meta',
      headers: {
        'content-type': 'application/json',
        'x-hub-signature-256': hubSignature('a'.repeat(32), body),
      },
      payload: body,
    });
    expect(whatsapp.statusCode, whatsapp.body).toBe(200);
    const [wa] = await messagesByProviderId(s.t, 'whatsapp', 'wamid.HALF-EMOJI-0001');
    expect(wa?.message).toBe('Open today? \ufffd');
  });
});
