import {
  auditLog,
  businesses,
  channelAccounts,
  enquiries,
  locations,
  platformNumbers,
} from '@switchboard/db';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { TwilioNumbersFake } from '../../test/fake-twilio-numbers.ts';
import { DEMO_LOGINS, eventually, getMe, type TestApp } from '../../test/helpers.ts';
import { sweepUnheldNumbers } from './platform-numbers.ts';
import {
  channelTestApp,
  FakeProvider,
  messagesByProviderId,
  PUBLIC_URL,
  postTwilio,
  SETUP_TIMEOUT_MS,
  SUITE_TIMEOUTS,
} from './test-support.ts';

const PLATFORM_SID = 'AC0123456789abcdef0123456789abcdef';
const PLATFORM_TOKEN = 'platformtoken0123456789abcdef0000';
const us = (phone: string, locality: string) => ({
  phone_number: phone,
  friendly_name: `(${phone.slice(2, 5)}) ${phone.slice(5, 8)}-${phone.slice(8)}`,
  locality,
  region: 'CA',
  iso_country: 'US',
  type: 'Local' as const,
  capabilities: { voice: true, SMS: true, MMS: true },
});

describe('numbers bought through the platform Twilio account', SUITE_TIMEOUTS, () => {
  let fake: FakeProvider;
  let twilio: TwilioNumbersFake;
  let t: TestApp;
  let owner: string;
  let staff: string;
  let northOwner: string;
  let loc1: string;
  let loc2: string;
  let harbourside: string;

  beforeAll(async () => {
    fake = await FakeProvider.start();
    twilio = new TwilioNumbersFake({ sid: PLATFORM_SID, auth_token: PLATFORM_TOKEN }).offer(
      us('+14155550101', 'San Francisco'),
      us('+14155550102', 'San Francisco'),
      us('+16175550100', 'Boston'),
      {
        phone_number: '+61491570200',
        friendly_name: '0491 570 200',
        locality: null,
        region: null,
        iso_country: 'AU',
        type: 'Mobile',
        capabilities: { voice: true, SMS: true, MMS: false },
      },
    );
    for (const method of ['GET', 'POST', 'DELETE'])
      fake.on(method, /^\/2010-04-01\/Accounts/, (req) => {
        const answer = twilio.answer({
          method: req.method,
          url: req.url,
          authorization: req.headers.authorization,
          form: req.form(),
        });
        return answer ?? { status: 404, json: { code: 20404, message: 'not at this fake' } };
      });
    t = await channelTestApp(fake, {
      TWILIO_PLATFORM_ACCOUNT_SID: PLATFORM_SID,
      TWILIO_PLATFORM_AUTH_TOKEN: PLATFORM_TOKEN,
      JOB_RETRY_DELAY_SECONDS: '1',
    });
    [owner, staff, northOwner] = await Promise.all([
      t.login(DEMO_LOGINS.owner),
      t.login(DEMO_LOGINS.staff1),
      t.login(DEMO_LOGINS.northsideOwner),
    ]);
    const business = (await getMe(t, owner)).businesses.find((b) => b.selected)!;
    harbourside = business.id;
    [loc1, loc2] = business.locations.map((l) => l.id) as [string, string];
  }, SETUP_TIMEOUT_MS);
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  const search = (token: string, query: string) =>
    t.request({ method: 'GET', url: `/api/v1/channels/numbers/available?${query}`, token });
  const buy = (token: string, location_id: string, phone_number: string) =>
    t.request({
      method: 'POST',
      url: '/api/v1/channels/numbers',
      token,
      payload: { location_id, phone_number },
    });

  it('searches local numbers by area code, formatted with their town and what they can do', async () => {
    const res = await search(owner, `location_id=${loc1}&country=US&area_code=415`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().body).toEqual({
      country: 'US',
      number_type: 'local',
      items: ['+14155550101', '+14155550102'].map((n) => ({
        phone_number: n,
        formatted: `(415) 555-${n.slice(-4)}`,
        locality: 'San Francisco',
        region: 'CA',
        iso_country: 'US',
        capabilities: { sms: true, voice: true, mms: true },
      })),
    });
    const asked = twilio.searches.at(-1)!;
    expect(asked).toMatchObject({ account: PLATFORM_SID, country: 'US', type: 'Local' });
    expect(asked.query).toMatchObject({ AreaCode: '415', SmsEnabled: 'true' });
  });

  it('searches mobile numbers where local ones cannot text (Australia), and by town', async () => {
    const au = await search(owner, `location_id=${loc1}&country=au`);
    expect(au.json().body).toMatchObject({
      number_type: 'mobile',
      items: [{ phone_number: '+61491570200', formatted: '0491 570 200', capabilities: { mms: false } }],
    });
    expect(twilio.searches.at(-1)).toMatchObject({ country: 'AU', type: 'Mobile' });
    const boston = await search(owner, `location_id=${loc1}&country=US&in_locality=Boston`);
    expect(boston.json().body.items.map((n: { phone_number: string }) => n.phone_number)).toEqual([
      '+16175550100',
    ]);
    expect(twilio.searches.at(-1)!.query.InLocality).toBe('Boston');
  });

  it('refuses bad searches with what is wrong, staff with 403 and another business with 404', async () => {
    const bad = await search(owner, `location_id=${loc1}&country=FR&area_code=4x`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/AU, US, CA or GB/);
    expect(bad.json().message).toMatch(/area code is digits only/);
    const staffRes = await search(staff, `location_id=${loc1}&country=US`);
    expect(staffRes.statusCode).toBe(403);
    expect((await buy(staff, loc1, '+14155550101')).statusCode).toBe(403);
    const searches = twilio.searches.length;
    expect((await search(northOwner, `location_id=${loc1}&country=US`)).statusCode).toBe(404);
    expect((await buy(northOwner, loc1, '+14155550101')).statusCode).toBe(404);
    expect(
      (
        await t.request({
          method: 'GET',
          url: `/api/v1/channels/numbers?location_id=${loc1}`,
          token: northOwner,
        })
      ).statusCode,
    ).toBe(404);
    expect(twilio.searches.length).toBe(searches);
    expect(twilio.bought).toHaveLength(0);
  });

  it("says a refusal of the platform's own credentials is for whoever runs Switchboard", async () => {
    const platform = twilio.accounts.get(PLATFORM_SID)!;
    platform.status = 'suspended';
    try {
      const res = await search(owner, `location_id=${loc1}&country=US`);
      expect(res.statusCode).toBe(422);
      expect(res.json().message).toBe(
        "Switchboard's Twilio account was refused (Twilio error 20003). Ask whoever runs Switchboard to check its Twilio settings, then try again.",
      );
    } finally {
      platform.status = 'active';
    }
  });

  it('buys into one subaccount per business, points texts and calls here and connects the number', async () => {
    const res = await buy(owner, loc1, '+14155550101');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json().body;
    const subs = twilio.subaccounts();
    expect(subs).toHaveLength(1);
    expect(subs[0]!.friendly_name).toBe(`Switchboard business ${harbourside}`);
    expect(twilio.bought[0]).toMatchObject({
      account_sid: subs[0]!.sid,
      phone_number: '+14155550101',
      form: {
        PhoneNumber: '+14155550101',
        SmsUrl: `${PUBLIC_URL}/webhooks/twilio/messaging`,
        SmsMethod: 'POST',
        StatusCallback: `${PUBLIC_URL}/webhooks/twilio/messaging/status`,
        VoiceUrl: `${PUBLIC_URL}/webhooks/twilio/voice/incoming`,
        VoiceMethod: 'POST',
      },
    });
    expect(body.number).toMatchObject({
      location_id: loc1,
      phone_number: '+14155550101',
      formatted: '(415) 555-0101',
      iso_country: 'US',
      registration: { state: 'required', summary: expect.stringMatching(/^Required — not started/) },
    });
    expect(body.channel).toMatchObject({
      location_id: loc1,
      provider: 'twilio',
      address: '+14155550101',
      config: { account_sid: subs[0]!.sid, phone_number: '+14155550101' },
    });
    expect(body.channel.config.auth_token).toBe(`••••${subs[0]!.auth_token.slice(-4)}`);
    const [l] = await t.database.db.select().from(locations).where(eq(locations.id, loc1));
    expect(l!.phone_number).toBe('+14155550101');

    // The second location's number goes into the same subaccount.
    const second = await buy(owner, loc2, '+61491570200');
    expect(second.statusCode, second.body).toBe(200);
    expect(twilio.subaccounts()).toHaveLength(1);
    expect(twilio.bought[1]!.account_sid).toBe(subs[0]!.sid);
    expect(second.json().body.number.registration.state).toBe('not_required');

    // The older "Get a number" does not buy more on the platform's subaccount outside this record.
    const legacy = await t.request({
      method: 'POST',
      url: `/api/v1/business/locations/purchase-number/${loc1}`,
      token: owner,
    });
    expect(legacy.statusCode).toBe(409);
    expect(legacy.json().message).toBe(
      "This location's number was bought through Switchboard. Release it first to get another one.",
    );
    // One Twilio account per location: a second number there is refused before anything is bought.
    const again = await buy(owner, loc1, '+14155550102');
    expect(again.statusCode).toBe(409);
    expect(twilio.bought).toHaveLength(2);
  });

  it('a text to the bought number, signed with the subaccount token, lands at its location', async () => {
    const sub = twilio.subaccounts()[0]!;
    const params = {
      AccountSid: sub.sid,
      MessageSid: 'SM00000000000000000000000000000abc',
      From: '+14155559999',
      To: '+14155550101',
      Body: 'Do you have a table tonight?',
      NumMedia: '0',
    };
    const forged = await postTwilio(t, '/webhooks/twilio/messaging', params, { token: PLATFORM_TOKEN });
    expect(forged.statusCode).toBe(403);
    const res = await postTwilio(t, '/webhooks/twilio/messaging', params, { token: sub.auth_token });
    expect(res.statusCode, res.body).toBe(200);
    const [message] = await messagesByProviderId(t, 'twilio', params.MessageSid);
    expect(message!.message).toBe('Do you have a table tonight?');
    const [enquiry] = await t.database.db
      .select()
      .from(enquiries)
      .where(eq(enquiries.id, message!.enquiry_id));
    expect(enquiry!.location_id).toBe(loc1);
  });

  it('lists the location numbers with their registration, and the owner releases one', async () => {
    const list = await t.request({
      method: 'GET',
      url: `/api/v1/channels/numbers?location_id=${loc2}`,
      token: owner,
    });
    expect(list.json().body).toMatchObject({
      available: true,
      sandbox: true,
      items: [{ phone_number: '+61491570200', registration: { state: 'not_required', action: null } }],
    });
    const id = list.json().body.items[0].id as string;
    expect(
      (await t.request({ method: 'DELETE', url: `/api/v1/channels/numbers/${id}`, token: northOwner }))
        .statusCode,
    ).toBe(404);
    expect(
      (await t.request({ method: 'DELETE', url: `/api/v1/channels/numbers/${id}`, token: staff })).statusCode,
    ).toBe(403);
    expect(twilio.bought[1]!.released).toBe(false);
    const res = await t.request({ method: 'DELETE', url: `/api/v1/channels/numbers/${id}`, token: owner });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().body.released_at).not.toBeNull();
    expect(twilio.bought[1]!.released).toBe(true);
    const accounts = await t.database.db
      .select()
      .from(channelAccounts)
      .where(and(eq(channelAccounts.location_id, loc2), eq(channelAccounts.provider, 'twilio')));
    expect(accounts).toHaveLength(0);
    const after = await t.request({
      method: 'GET',
      url: `/api/v1/channels/numbers?location_id=${loc2}`,
      token: owner,
    });
    expect(after.json().body.items).toEqual([]);
    const again = await t.request({ method: 'DELETE', url: `/api/v1/channels/numbers/${id}`, token: owner });
    expect(again.statusCode).toBe(404);
  });

  it('an administrator records where a US number’s carrier registration stands; the owner reads what it means', async () => {
    const admin = await t.login(DEMO_LOGINS.admin);
    const numbers = (token: string, business = harbourside) =>
      t.request({ method: 'GET', url: `/api/v1/admin/businesses/${business}/numbers`, token });
    const listed = await numbers(admin);
    expect(listed.statusCode, listed.body).toBe(200);
    const items = listed.json().body.items as { id: string; phone_number: string; location_name: string }[];
    expect(items.map((n) => n.phone_number)).toEqual(['+61491570200', '+14155550101']);
    const us = items.find((n) => n.phone_number === '+14155550101')!;
    const au = items.find((n) => n.phone_number === '+61491570200')!;
    expect(us.location_name).toBeTruthy();
    const record = (token: string, id: string, payload: Record<string, string>) =>
      t.request({ method: 'PATCH', url: `/api/v1/admin/numbers/${id}`, token, payload });

    // Only administrators: the business's own owner and staff are refused, and nothing changes.
    expect((await numbers(owner)).statusCode).toBe(403);
    expect((await record(owner, us.id, { registration: 'approved' })).statusCode).toBe(403);
    expect((await record(staff, us.id, { registration: 'approved' })).statusCode).toBe(403);
    const bad = await record(admin, us.id, { registration: 'done' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/must be required, pending, approved or rejected/);
    expect(
      (await record(admin, '0190f0a0-0000-7000-8000-000000000000', { registration: 'pending' })).statusCode,
    ).toBe(404);
    expect((await numbers(admin, '0190f0a0-0000-7000-8000-000000000000')).statusCode).toBe(404);
    // A released number, and an Australian one (texts without registration), have nothing to record.
    const released = await record(admin, au.id, { registration: 'pending' });
    expect(released.statusCode).toBe(422);
    expect(released.json().message).toMatch(/given back to Twilio/);

    const pending = await record(admin, us.id, { registration: 'pending' });
    expect(pending.statusCode, pending.body).toBe(200);
    expect(pending.json().body.registration).toMatchObject({ state: 'pending', action: null });
    const approved = await record(admin, us.id, { registration: 'approved' });
    expect(approved.json().body.registration.state).toBe('approved');
    const list = await t.request({
      method: 'GET',
      url: `/api/v1/channels/numbers?location_id=${loc1}`,
      token: owner,
    });
    expect(list.json().body.items[0].registration).toEqual({
      state: 'approved',
      summary: 'Registered with US carriers for A2P 10DLC: texts go through.',
      action: null,
    });
    // The owner's audit log says who recorded it.
    const audit = await t.request({ method: 'GET', url: '/api/v1/business/audit-log', token: owner });
    expect(audit.json().body.items).toContainEqual(
      expect.objectContaining({
        action: 'admin.number.registration',
        detail: { phone_number: '+14155550101', from: 'pending', to: 'approved' },
      }),
    );
  });

  it('when the subscription ends, a job releases the business numbers', async () => {
    await t.database.db
      .update(businesses)
      .set({ stripe_subscription_status: 'canceled', subscription_past_due: true })
      .where(eq(businesses.id, harbourside));
    t.app.events.emit('account.changed', { business_id: harbourside });
    await eventually(async () => twilio.bought[0]!.released, 30_000);
    const [row] = await eventually(async () => {
      const rows = await t.database.db
        .select()
        .from(platformNumbers)
        .where(eq(platformNumbers.phone_number, '+14155550101'));
      return rows[0]?.released_at ? rows : undefined;
    });
    expect(row!.channel_account_id).toBeNull();
    const [l] = await t.database.db.select().from(locations).where(eq(locations.id, loc1));
    expect(l!.phone_number).toBeNull();
    const audit = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.business_id, harbourside), eq(auditLog.action, 'location.number.release')));
    expect(audit.map((a) => (a.detail as { why: string }).why).sort()).toEqual([
      'owner',
      'subscription ended',
    ]);
    // Nothing left to release: the sweep queues nothing.
    expect(await sweepUnheldNumbers(t.app)).toBe(0);
  });
});

describe('the platform Twilio account setting', () => {
  const env = { JWT_SECRET: 'x'.repeat(40), ENCRYPTION_KEY: '0'.repeat(64) };
  it('takes the Account SID and Auth Token together, and says which is missing', () => {
    expect(
      loadConfig({
        ...env,
        TWILIO_PLATFORM_ACCOUNT_SID: PLATFORM_SID,
        TWILIO_PLATFORM_AUTH_TOKEN: PLATFORM_TOKEN,
      }).twilioPlatform,
    ).toEqual({ accountSid: PLATFORM_SID, authToken: PLATFORM_TOKEN });
    expect(loadConfig(env).twilioPlatform).toBeUndefined();
    expect(() => loadConfig({ ...env, TWILIO_PLATFORM_ACCOUNT_SID: PLATFORM_SID })).toThrow(
      /set both TWILIO_PLATFORM_ACCOUNT_SID and TWILIO_PLATFORM_AUTH_TOKEN/,
    );
    expect(() =>
      loadConfig({ ...env, TWILIO_PLATFORM_ACCOUNT_SID: 'AC123', TWILIO_PLATFORM_AUTH_TOKEN: 'x' }),
    ).toThrow(/TWILIO_PLATFORM_ACCOUNT_SID: an Account SID/);
  });
});
