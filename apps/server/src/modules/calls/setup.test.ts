import { callPresence } from '@switchboard/db';
import { eq } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { voiceIdentity } from '../../channels/twilio/voice.ts';
import { DEMO_LOGINS, getMe } from '../../test/helpers.ts';
import {
  type ChannelSuite,
  connect,
  PUBLIC_URL,
  postTwilio,
  SETUP_TIMEOUT_MS,
  SUITE_TIMEOUTS,
  startChannelSuite,
  TWILIO_SID,
  TWILIO_TOKEN,
} from '../channels/test-support.ts';

const NUMBER = '+61491570110';
const API = `/2010-04-01/Accounts/${TWILIO_SID}`;
const APP_SID = `AP${'d'.repeat(32)}`;
const KEY_SID = `SK${'e'.repeat(32)}`;
const NUMBER_SID = `PN${'f'.repeat(32)}`;

describe('setting up calling, phone tokens and who is available', SUITE_TIMEOUTS, () => {
  let s: ChannelSuite;
  let channelId: string;
  let staffId: string;
  let location: string;

  beforeAll(async () => {
    s = await startChannelSuite();
    location = s.locations[0];
    staffId = (await getMe(s.t, s.staff)).id;
    channelId = (
      await connect(s.t, s.owner, {
        location_id: location,
        provider: 'twilio',
        config: { account_sid: TWILIO_SID, auth_token: TWILIO_TOKEN, phone_number: NUMBER },
      })
    ).id;
    let apps: { sid: string }[] = [];
    s.fake
      .on('GET', `${API}/Applications.json`, () => ({ json: { applications: apps } }))
      .on('POST', `${API}/Applications.json`, () => {
        apps = [{ sid: APP_SID }];
        return { status: 201, json: { sid: APP_SID } };
      })
      .on('POST', `${API}/Applications/${APP_SID}.json`, { json: { sid: APP_SID } })
      .on('POST', `${API}/Keys.json`, {
        status: 201,
        json: { sid: KEY_SID, secret: 'key-secret-shown-once' },
      })
      .on('GET', `${API}/IncomingPhoneNumbers.json`, {
        json: { incoming_phone_numbers: [{ sid: NUMBER_SID, phone_number: NUMBER }] },
      })
      .on('POST', `${API}/IncomingPhoneNumbers/${NUMBER_SID}.json`, { json: { sid: NUMBER_SID } });
  }, SETUP_TIMEOUT_MS);
  afterAll(() => s.close());

  const setUp = (token = s.owner, id = channelId) =>
    s.t.request({ method: 'POST', url: `/api/v1/channels/${id}/calling`, token });
  const tokenFor = (token: string, identity: string) =>
    s.t.request({ method: 'POST', url: '/api/v1/twilio/generate-voice-token', token, payload: { identity } });

  it('refuses a phone token before calling is set up, in plain words', async () => {
    const res = await tokenFor(s.staff, voiceIdentity(staffId, location));
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toContain('Calling is not set up for this location yet');
  });

  it('makes the TwiML App, the API Key and points the number here, and running it again makes nothing twice', async () => {
    expect((await setUp(s.staff)).statusCode).toBe(403);
    const north = await s.t.login(DEMO_LOGINS.northsideOwner);
    expect((await setUp(north)).statusCode).toBe(404);

    const first = await setUp();
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().body).toMatchObject({
      twiml_app_sid: APP_SID,
      phone_number: NUMBER,
      location_id: location,
    });
    const made = s.fake.received('POST', `${API}/Applications.json`)[0]!.form();
    expect(made.get('VoiceUrl')).toBe(`${PUBLIC_URL}/webhooks/twilio/voice/outgoing`);
    expect(made.get('VoiceMethod')).toBe('POST');
    const numberSet = s.fake.received('POST', `${API}/IncomingPhoneNumbers/${NUMBER_SID}.json`)[0]!.form();
    expect(numberSet.get('VoiceUrl')).toBe(`${PUBLIC_URL}/webhooks/twilio/voice/incoming`);
    expect(numberSet.get('StatusCallback')).toBe(`${PUBLIC_URL}/webhooks/twilio/voice/status`);

    expect((await setUp()).statusCode).toBe(200);
    expect(s.fake.received('POST', `${API}/Applications.json`)).toHaveLength(1);
    expect(s.fake.received('POST', `${API}/Keys.json`)).toHaveLength(1);
    expect(s.fake.received('POST', `${API}/Applications/${APP_SID}.json`)).toHaveLength(1);

    // The key's secret is kept encrypted and never answered.
    const channel = (
      await s.t.request({ method: 'GET', url: `/api/v1/channels/${channelId}`, token: s.owner })
    ).json().body;
    expect(channel.config.api_key_sid).toBe(KEY_SID);
    expect(JSON.stringify(channel)).not.toContain('key-secret-shown-once');
  });

  it('mints a phone token for the signed-in person at their location only', async () => {
    const identity = voiceIdentity(staffId, location);
    const res = await tokenFor(s.staff, identity);
    expect(res.statusCode, res.body).toBe(200);
    const claims = decodeJwt(res.json().body.token) as {
      iss: string;
      sub: string;
      grants: {
        identity: string;
        voice: { incoming: { allow: boolean }; outgoing: { application_sid: string } };
      };
    };
    expect(claims).toMatchObject({
      iss: KEY_SID,
      sub: TWILIO_SID,
      grants: { identity, voice: { incoming: { allow: true }, outgoing: { application_sid: APP_SID } } },
    });
    const ownerId = (await getMe(s.t, s.owner)).id;
    const someoneElse = await tokenFor(s.staff, voiceIdentity(ownerId, location));
    expect(someoneElse.statusCode).toBe(403);
    expect((await tokenFor(s.staff, 'agent_jane')).statusCode).toBe(403);
  });

  it('rings a person who says they are available, and stops once they are away', async () => {
    const presence = (available: boolean, locationId = location, token = s.staff) =>
      s.t.request({
        method: 'PUT',
        url: '/api/v1/calls/presence',
        token,
        payload: { location_id: locationId, available },
      });
    const here = await presence(true);
    expect(here.statusCode, here.body).toBe(200);
    expect(Date.parse(here.json().body.until)).toBeGreaterThan(Date.now() + 60_000);
    const ring = (sid: string) =>
      postTwilio(s.t, '/webhooks/twilio/voice/incoming', {
        AccountSid: TWILIO_SID,
        CallSid: sid,
        From: '+61491570031',
        To: NUMBER,
      });
    expect((await ring(`CA${'1'.repeat(32)}`)).body).toContain(
      `<Identity>${voiceIdentity(staffId, location)}</Identity>`,
    );

    expect((await presence(false)).json().body).toMatchObject({ available: false, until: null });
    expect((await ring(`CA${'2'.repeat(32)}`)).body).not.toContain('<Dial');

    // Another business's location is not found, and nothing is stored for it.
    const north = await s.t.login(DEMO_LOGINS.northsideOwner);
    const northLocation = (await getMe(s.t, north)).businesses.find((b) => b.selected)!.locations[0]!.id;
    expect((await presence(true, northLocation)).statusCode).toBe(404);
    expect(
      await s.t.database.db.select().from(callPresence).where(eq(callPresence.location_id, northLocation)),
    ).toEqual([]);
  });
});
