import { generateKeyPairSync } from 'node:crypto';
import { channelAccounts, locations } from '@switchboard/db';
import { ChannelAccount } from '@switchboard/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decryptJson, encryptJson, maskSecret } from '../../lib/crypto.ts';
import { DEMO_LOGINS, getMe, namedIn, type TestApp } from '../../test/helpers.ts';
import {
  accountRow,
  channelTestApp,
  connect,
  FakeProvider,
  META_SECRET,
  PUBLIC_URL,
  RBM_TOKEN,
  SETUP_TIMEOUT_MS,
  SUITE_TIMEOUTS,
  TWILIO_SID,
  TWILIO_TOKEN,
} from './test-support.ts';

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const ROTATED_TOKEN = 'fedcba9876543210fedcba9876543210';
const SERVICE_ACCOUNT = {
  type: 'service_account',
  project_id: 'rbm-fixture',
  private_key_id: 'keyid0000000000000000000000000000000abcd',
  private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  client_email: 'rbm-agent@rbm-fixture.iam.gserviceaccount.com',
};

describe('AES-256-GCM secrets', () => {
  const key = Buffer.alloc(32, 7);

  it('round-trips, and refuses another key, another row or a flipped byte', () => {
    const sealed = encryptJson(key, { auth_token: 'secret-value' }, 'channel_account:1');
    expect(sealed.startsWith('v1:')).toBe(true);
    expect(sealed).not.toContain('secret-value');
    expect(decryptJson(key, sealed, 'channel_account:1')).toEqual({ auth_token: 'secret-value' });
    expect(() => decryptJson(Buffer.alloc(32, 8), sealed, 'channel_account:1')).toThrow();
    expect(() => decryptJson(key, sealed, 'channel_account:2')).toThrow();
    const raw = Buffer.from(sealed.slice(3), 'base64');
    raw[raw.length - 1]! ^= 1;
    expect(() => decryptJson(key, `v1:${raw.toString('base64')}`, 'channel_account:1')).toThrow();
  });

  it('masks to the last four characters, and hides short secrets entirely', () => {
    expect(maskSecret('0123456789abcdef0123456789abcdef')).toBe('••••cdef');
    expect(maskSecret('short')).toBe('••••');
    expect(maskSecret(null)).toBeNull();
  });
});

describe('connected channel accounts', SUITE_TIMEOUTS, () => {
  let fake: FakeProvider;
  let t: TestApp;
  let owner: string;
  let staff: string;
  let northOwner: string;
  let loc1: string;
  let loc2: string;
  let northLoc: string;

  beforeAll(async () => {
    fake = await FakeProvider.start();
    t = await channelTestApp(fake);
    [owner, staff, northOwner] = await Promise.all([
      t.login(DEMO_LOGINS.owner),
      t.login(DEMO_LOGINS.staff1),
      t.login(DEMO_LOGINS.northsideOwner),
    ]);
    const me = await getMe(t, owner);
    [loc1, loc2] = me.businesses.find((b) => b.selected)!.locations.map((l) => l.id) as [string, string];
    northLoc = (await getMe(t, northOwner)).businesses.find((b) => b.selected)!.locations[0]!.id;
    // Harbourside's Twilio account: the numbers it owns, and the second Auth Token it rotates to.
    fake.owners.twilio(TWILIO_SID, [TWILIO_TOKEN, ROTATED_TOKEN], {
      numbers: ['+61491570110', '+61491570111'],
    });
  }, SETUP_TIMEOUT_MS);
  afterAll(async () => {
    await t.close();
    await fake.close();
  }, SETUP_TIMEOUT_MS);

  const twilioConfig = {
    account_sid: TWILIO_SID,
    auth_token: TWILIO_TOKEN,
    phone_number: '+61 491 570 110',
  };

  it('connects Twilio: secrets masked, webhook URLs from PUBLIC_URL, nothing secret stored in the clear', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/channels',
      token: owner,
      payload: { location_id: loc1, provider: 'twilio', config: twilioConfig },
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json().body;
    // Exactly the fields of the shared contract (the route's declared response): nothing else is ever sent.
    expect(Object.keys(body).sort()).toEqual(Object.keys(ChannelAccount.shape).sort());
    expect(ChannelAccount.safeParse(body).success).toBe(true);
    expect(body).toMatchObject({
      location_id: loc1,
      provider: 'twilio',
      channels: ['sms', 'mms'],
      address: '+61491570110',
      config: {
        account_sid: TWILIO_SID,
        phone_number: '+61491570110',
        auth_token: '••••cdef',
      },
      webhooks: {
        messaging_url: `${PUBLIC_URL}/webhooks/twilio/messaging`,
        status_callback_url: `${PUBLIC_URL}/webhooks/twilio/messaging/status`,
        voice_url: `${PUBLIC_URL}/webhooks/twilio/voice/incoming`,
      },
    });
    expect(res.body).not.toContain(TWILIO_TOKEN);

    const row = await accountRow(t, body.id);
    expect(JSON.stringify(row)).not.toContain(TWILIO_TOKEN);
    expect(row.config).not.toHaveProperty('auth_token');
    expect(row.secrets_encrypted).toMatch(/^v1:/);
    expect(decryptJson(t.config.encryptionKey, row.secrets_encrypted!, `channel_account:${row.id}`)).toEqual({
      auth_token: TWILIO_TOKEN,
    });

    const listed = await t.request({ method: 'GET', url: '/api/v1/channels', token: owner });
    expect(listed.json().body).toMatchObject({ total: 1, page: 1, items: [{ id: body.id }] });
    expect(listed.body).not.toContain(TWILIO_TOKEN);
    const audit = await t.database.db.query.auditLog.findMany();
    expect(audit.some((a) => a.action === 'channel.connect' && a.target === body.id)).toBe(true);
    expect(JSON.stringify(audit)).not.toContain(TWILIO_TOKEN);
  });

  it('connects every other provider with its secrets masked', async () => {
    const meta = { app_secret: META_SECRET, verify_token: 'fixture-verify-token' };
    const whatsapp = await connect(t, owner, {
      location_id: loc2,
      provider: 'whatsapp',
      config: {
        phone_number_id: '100000000000002',
        waba_id: '100000000000001',
        access_token: 'EAAGwhatsapptoken0001',
        ...meta,
      },
    });
    expect(whatsapp.config).toEqual({
      phone_number_id: '100000000000002',
      waba_id: '100000000000001',
      display_phone_number: null,
      access_token: '••••0001',
      app_secret: '••••6789',
      verify_token: '••••oken',
    });
    expect(whatsapp.webhooks).toEqual({ callback_url: `${PUBLIC_URL}/webhooks/meta` });
    const messenger = await connect(t, owner, {
      location_id: loc2,
      provider: 'messenger',
      config: { page_id: '100000000000010', page_access_token: 'EAAGpagetoken0002', ...meta },
    });
    expect(messenger.config.page_access_token).toBe('••••0002');
    const instagram = await connect(t, owner, {
      location_id: loc2,
      provider: 'instagram',
      config: { instagram_account_id: '17841400000000001', access_token: 'IGQVJinstatoken0003', ...meta },
    });
    expect(instagram.config.access_token).toBe('••••0003');
    const rcs = await connect(t, owner, {
      location_id: loc2,
      provider: 'google_rcs',
      config: {
        agent_id: 'fixture_agent_0001@rbm.goog',
        client_token: RBM_TOKEN,
        service_account_json: JSON.stringify(SERVICE_ACCOUNT),
      },
    });
    expect(rcs.config).toEqual({
      agent_id: 'fixture_agent_0001@rbm.goog',
      service_account_email: SERVICE_ACCOUNT.client_email,
      client_token: '••••EN01',
      service_account_json: '••••abcd',
    });
    expect(rcs.webhooks).toEqual({ webhook_url: `${PUBLIC_URL}/webhooks/google-rcs` });
    const rows = await t.database.db.select().from(channelAccounts);
    const stored = JSON.stringify(rows);
    for (const secret of [
      META_SECRET,
      'EAAGwhatsapptoken0001',
      'EAAGpagetoken0002',
      RBM_TOKEN,
      'BEGIN PRIVATE KEY',
    ]) {
      expect(stored).not.toContain(secret);
    }
  });

  it('edits: a secret left out or sent back masked is kept; a new one replaces it', async () => {
    const [account] = (
      await t.request({ method: 'GET', url: '/api/v1/channels?provider=twilio', token: owner })
    ).json().body.items;
    const patched = await t.request({
      method: 'PATCH',
      url: `/api/v1/channels/${account.id}`,
      token: owner,
      payload: { config: { phone_number: '+61491570111', auth_token: '••••cdef' } },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json().body).toMatchObject({
      address: '+61491570111',
      config: { auth_token: '••••cdef' },
    });
    let row = await accountRow(t, account.id);
    expect(decryptJson(t.config.encryptionKey, row.secrets_encrypted!, `channel_account:${row.id}`)).toEqual({
      auth_token: TWILIO_TOKEN,
    });
    const rotated = await t.request({
      method: 'PATCH',
      url: `/api/v1/channels/${account.id}`,
      token: owner,
      payload: { config: { auth_token: ROTATED_TOKEN } },
    });
    expect(rotated.json().body.config.auth_token).toBe('••••3210');
    row = await accountRow(t, account.id);
    expect(JSON.stringify(row)).not.toContain('fedcba9876543210');
    // Put the fixture token back for the tests after this one.
    await t.request({
      method: 'PATCH',
      url: `/api/v1/channels/${account.id}`,
      token: owner,
      payload: { config: { auth_token: TWILIO_TOKEN, phone_number: '+61491570110' } },
    });
    const bad = await t.request({
      method: 'PATCH',
      url: `/api/v1/channels/${account.id}`,
      token: owner,
      payload: { config: { account_sid: 'nope' } },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('The Account SID starts with AC');
  });

  it('refuses bad config with a message naming the field, a second account with 409, and credentials that do not own the number', async () => {
    const bad = await t.request({
      method: 'POST',
      url: '/api/v1/channels',
      token: owner,
      payload: { location_id: loc2, provider: 'twilio', config: { ...twilioConfig, account_sid: 'AC123' } },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'validation_failed' });
    expect(namedIn(bad.json())).toContain('config.account_sid');

    const second = await t.request({
      method: 'POST',
      url: '/api/v1/channels',
      token: owner,
      payload: {
        location_id: loc1,
        provider: 'twilio',
        config: { ...twilioConfig, phone_number: '+61491570120' },
      },
    });
    expect(second.statusCode).toBe(409);
    expect(second.json().message).toBe(
      'This location already has a Twilio account connected. Edit that one.',
    );

    // Another business with the very same (confirmed) credentials: the account is Harbourside's.
    const taken = await t.request({
      method: 'POST',
      url: '/api/v1/channels',
      token: northOwner,
      payload: { location_id: northLoc, provider: 'twilio', config: twilioConfig },
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toMatch(
      /^\+61491570110 is connected to another business, and Twilio confirmed it is theirs\./,
    );

    // The number with credentials Twilio does not know, or a real account that does not own it.
    const strangers = await t.request({
      method: 'POST',
      url: '/api/v1/channels',
      token: northOwner,
      payload: {
        location_id: northLoc,
        provider: 'twilio',
        config: { ...twilioConfig, account_sid: `AC${'b'.repeat(32)}` },
      },
    });
    expect(strangers.statusCode).toBe(422);
    expect(strangers.json().message).toBe(
      'Twilio did not accept this Account SID and Auth Token. Copy both again from the Twilio Console (Account info).',
    );
    fake.owners.twilio(`AC${'c'.repeat(32)}`, 'north-token-0123456789abcdef0123', {
      numbers: ['+15555550200'],
    });
    const notTheirs = await t.request({
      method: 'POST',
      url: '/api/v1/channels',
      token: northOwner,
      payload: {
        location_id: northLoc,
        provider: 'twilio',
        config: {
          ...twilioConfig,
          account_sid: `AC${'c'.repeat(32)}`,
          auth_token: 'north-token-0123456789abcdef0123',
        },
      },
    });
    expect(notTheirs.statusCode).toBe(422);
    expect(notTheirs.json().message).toMatch(/^\+61491570110 is not a phone number of this Twilio account/);
    expect(
      (await t.request({ method: 'GET', url: '/api/v1/channels', token: northOwner })).json().body.total,
    ).toBe(0);
  });

  it('is for the owner only: staff get 403 with a message; another business gets 404', async () => {
    const [account] = (await t.request({ method: 'GET', url: '/api/v1/channels', token: owner })).json().body
      .items;
    for (const [method, url] of [
      ['GET', '/api/v1/channels'],
      ['GET', `/api/v1/channels/${account.id}`],
      ['DELETE', `/api/v1/channels/${account.id}`],
    ] as const) {
      const res = await t.request({ method, url, token: staff });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({
        message: 'Only the business owner can manage channels.',
        code: 'owner_only',
      });
    }
    for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
      const res = await t.request({
        method,
        url: `/api/v1/channels/${account.id}`,
        token: northOwner,
        ...(method === 'PATCH' ? { payload: { config: {} } } : {}),
      });
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('Channel not found.');
    }
    const theirs = await t.request({
      method: 'POST',
      url: '/api/v1/channels',
      token: northOwner,
      payload: {
        location_id: loc1,
        provider: 'twilio',
        config: { ...twilioConfig, phone_number: '+61491570130' },
      },
    });
    expect(theirs.statusCode).toBe(404);
    expect(
      (await t.request({ method: 'GET', url: '/api/v1/channels', token: northOwner })).json().body.total,
    ).toBe(0);
  });

  it('disconnects', async () => {
    const created = await connect(t, northOwner, {
      location_id: northLoc,
      provider: 'messenger',
      config: {
        page_id: '100000000000099',
        page_access_token: 'EAAGnorthpage00001',
        app_secret: 'x'.repeat(32),
        verify_token: 'north',
      },
    });
    const res = await t.request({
      method: 'DELETE',
      url: `/api/v1/channels/${created.id}`,
      token: northOwner,
    });
    expect(res.json().body).toEqual({ id: created.id, deleted: true });
    expect(
      (await t.request({ method: 'GET', url: `/api/v1/channels/${created.id}`, token: northOwner }))
        .statusCode,
    ).toBe(404);
  });

  describe('buying a number for a location', () => {
    it('in sandbox mode without a Twilio account, assigns the next free number of the fiction range', async () => {
      const first = await t.request({
        method: 'POST',
        url: `/api/v1/business/locations/purchase-number/${northLoc}`,
        token: northOwner,
      });
      expect(first.statusCode, first.body).toBe(200);
      expect(first.json().body).toEqual({
        location_id: northLoc,
        phone_number: '+61491570000',
        provider: 'sandbox',
        channel: null,
      });
      const [l] = await t.database.db.select().from(locations).where(eq(locations.id, northLoc));
      expect(l!.phone_number).toBe('+61491570000');
      // Already taken (by this location) is skipped: each location of the business has its own number.
      const again = await t.request({
        method: 'POST',
        url: `/api/v1/business/locations/purchase-number/${northLoc}`,
        token: northOwner,
        payload: {},
      });
      expect(again.json().body.phone_number).toBe('+61491570001');
    });

    it('refuses staff with 403 and another business with 404', async () => {
      const staffRes = await t.request({
        method: 'POST',
        url: `/api/v1/business/locations/purchase-number/${loc1}`,
        token: staff,
      });
      expect(staffRes.statusCode).toBe(403);
      expect(staffRes.json().message).toBe('Only the business owner can buy phone numbers.');
      const other = await t.request({
        method: 'POST',
        url: `/api/v1/business/locations/purchase-number/${loc1}`,
        token: northOwner,
      });
      expect(other.statusCode).toBe(404);
    });

    it("with the location's Twilio account: searches, buys and points the number's webhooks here", async () => {
      const base = `/2010-04-01/Accounts/${TWILIO_SID}`;
      fake
        .on('GET', `${base}/AvailablePhoneNumbers/AU/Local.json`, { json: { available_phone_numbers: [] } })
        .on('GET', `${base}/AvailablePhoneNumbers/AU/Mobile.json`, {
          json: { available_phone_numbers: [{ phone_number: '+61491570888' }] },
        })
        .on('POST', `${base}/IncomingPhoneNumbers.json`, {
          status: 201,
          json: { sid: 'PN0123456789abcdef0123456789abcdef', phone_number: '+61491570888' },
        });
      const res = await t.request({
        method: 'POST',
        url: `/api/v1/business/locations/purchase-number/${loc1}`,
        token: owner,
        payload: { area_code: '4' },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().body).toMatchObject({
        location_id: loc1,
        phone_number: '+61491570888',
        provider: 'twilio',
        channel: {
          address: '+61491570888',
          config: { phone_number: '+61491570888', auth_token: '••••cdef' },
        },
      });
      const [search] = fake.received('GET', `${base}/AvailablePhoneNumbers/AU/Local.json`);
      expect(Object.fromEntries(search!.url.searchParams)).toEqual({
        SmsEnabled: 'true',
        PageSize: '1',
        AreaCode: '4',
      });
      expect(search!.headers.authorization).toBe(
        `Basic ${Buffer.from(`${TWILIO_SID}:${TWILIO_TOKEN}`).toString('base64')}`,
      );
      const [buy] = fake.received('POST', `${base}/IncomingPhoneNumbers.json`);
      expect(Object.fromEntries(buy!.form())).toEqual({
        PhoneNumber: '+61491570888',
        SmsUrl: `${PUBLIC_URL}/webhooks/twilio/messaging`,
        SmsMethod: 'POST',
        StatusCallback: `${PUBLIC_URL}/webhooks/twilio/messaging/status`,
        StatusCallbackMethod: 'POST',
      });
      const [l] = await t.database.db.select().from(locations).where(eq(locations.id, loc1));
      expect(l!.phone_number).toBe('+61491570888');
    });

    it('explains when Twilio refuses', async () => {
      const base = `/2010-04-01/Accounts/${TWILIO_SID}`;
      fake.on('GET', `${base}/AvailablePhoneNumbers/AU/Local.json`, {
        status: 401,
        json: { code: 20003, message: 'Authenticate', status: 401 },
      });
      const res = await t.request({
        method: 'POST',
        url: `/api/v1/business/locations/purchase-number/${loc1}`,
        token: owner,
      });
      expect(res.statusCode).toBe(422);
      expect(res.json().message).toBe(
        "Twilio error 20003: Twilio rejected this account's credentials. Check the Account SID and Auth Token in channel settings.",
      );
    });
  });
});
