import { createDecipheriv } from 'node:crypto';
import { calls } from '@switchboard/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_LOGINS, DEMO_PASSWORD, getMe } from '../../test/helpers.ts';
import {
  type ChannelSuite,
  connect,
  postTwilio,
  SETUP_TIMEOUT_MS,
  SUITE_TIMEOUTS,
  startChannelSuite,
  TWILIO_SID,
  TWILIO_TOKEN,
} from '../channels/test-support.ts';

const NUMBER = '+61491570110';
const API = `/2010-04-01/Accounts/${TWILIO_SID}`;
const DOMAIN_SID = `SD${'1'.repeat(32)}`;
const LIST_SID = `CL${'2'.repeat(32)}`;
const CREDENTIAL_SID = `CR${'3'.repeat(32)}`;

/** What the browser does with the sealed password: AES-256-GCM with the login's key, its iv as additional data. */
function open(sealed: { ciphertext: string; nonce: string }, login: { key: string; iv: string }): string {
  const bytes = Buffer.from(sealed.ciphertext, 'base64');
  const decipher = createDecipheriv(
    'aes-256-gcm',
    Buffer.from(login.key, 'hex'),
    Buffer.from(sealed.nonce, 'base64'),
  );
  decipher.setAAD(Buffer.from(login.iv, 'utf8'));
  decipher.setAuthTag(bytes.subarray(bytes.length - 16));
  return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - 16)), decipher.final()]).toString(
    'utf8',
  );
}

describe('desk phones on the location’s Twilio SIP domain', SUITE_TIMEOUTS, () => {
  let s: ChannelSuite;
  let location: string;
  let channelId: string;
  let login: { token: string; key: string; iv: string };
  let domain = '';
  const credentials: { sid: string; username: string }[] = [];

  beforeAll(async () => {
    s = await startChannelSuite();
    location = s.locations[0];
    channelId = (
      await connect(s.t, s.owner, {
        location_id: location,
        provider: 'twilio',
        config: { account_sid: TWILIO_SID, auth_token: TWILIO_TOKEN, phone_number: NUMBER },
      })
    ).id;
    const res = await s.t.request({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: DEMO_LOGINS.staff1, password: DEMO_PASSWORD },
    });
    login = res.json().body;
    const mappings: Record<string, { sid: string }[]> = { Registrations: [], Calls: [] };
    s.fake
      .on('GET', `${API}/Applications.json`, { json: { applications: [] } })
      .on('POST', `${API}/Applications.json`, { json: { sid: `AP${'d'.repeat(32)}` } })
      .on('POST', `${API}/Keys.json`, { json: { sid: `SK${'e'.repeat(32)}`, secret: 'secret' } })
      .on('GET', `${API}/IncomingPhoneNumbers.json`, {
        json: { incoming_phone_numbers: [{ sid: `PN${'f'.repeat(32)}` }] },
      })
      .on('POST', /\/IncomingPhoneNumbers\/PN\w+\.json$/, { json: {} })
      .on('GET', `${API}/SIP/Domains.json`, () => ({
        json: { domains: domain ? [{ sid: DOMAIN_SID, domain_name: domain }] : [] },
      }))
      .on('POST', `${API}/SIP/Domains.json`, (req) => {
        domain = req.form().get('DomainName')!;
        return { status: 201, json: { sid: DOMAIN_SID, domain_name: domain } };
      })
      .on('GET', `${API}/SIP/CredentialLists.json`, { json: { credential_lists: [] } })
      .on('POST', `${API}/SIP/CredentialLists.json`, { status: 201, json: { sid: LIST_SID } })
      .on('GET', /\/Auth\/(Registrations|Calls)\/CredentialListMappings\.json$/, (req) => ({
        json: { contents: mappings[req.path.includes('/Registrations/') ? 'Registrations' : 'Calls'] },
      }))
      .on('POST', /\/Auth\/(Registrations|Calls)\/CredentialListMappings\.json$/, (req) => {
        mappings[req.path.includes('/Registrations/') ? 'Registrations' : 'Calls']!.push({ sid: LIST_SID });
        return { status: 201, json: { sid: LIST_SID } };
      })
      .on('GET', `${API}/SIP/CredentialLists/${LIST_SID}/Credentials.json`, () => ({ json: { credentials } }))
      .on('POST', `${API}/SIP/CredentialLists/${LIST_SID}/Credentials.json`, (req) => {
        credentials.push({ sid: CREDENTIAL_SID, username: req.form().get('Username')! });
        return { status: 201, json: { sid: CREDENTIAL_SID } };
      })
      .on('POST', `${API}/SIP/CredentialLists/${LIST_SID}/Credentials/${CREDENTIAL_SID}.json`, {
        json: { sid: CREDENTIAL_SID },
      });
  }, SETUP_TIMEOUT_MS);
  afterAll(() => s.close());

  const deskPhone = (payload: object, token = login.token) =>
    s.t.request({ method: 'POST', url: '/api/v1/user/sip', token, payload });

  it('needs calling set up first, and says so', async () => {
    const res = await deskPhone({ location_id: location });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toContain('Calling is not set up for this location yet');
  });

  it('makes the SIP domain, its credential list and mappings once, and shows the password once, sealed for the browser', async () => {
    expect(
      (await s.t.request({ method: 'POST', url: `/api/v1/channels/${channelId}/calling`, token: s.owner }))
        .statusCode,
    ).toBe(200);

    const first = await deskPhone({ location_id: location });
    expect(first.statusCode, first.body).toBe(200);
    const body = first.json().body;
    expect(body).toMatchObject({
      location_id: location,
      server: domain,
      username: expect.stringMatching(/^u[0-9a-f]{20}$/),
    });
    expect(domain).toMatch(/^switchboard-[0-9a-f]{20}\.sip\.twilio\.com$/);
    const made = s.fake
      .received('POST', `${API}/SIP/CredentialLists/${LIST_SID}/Credentials.json`)[0]!
      .form();
    expect(made.get('Username')).toBe(body.username);
    expect(open(body.password, login)).toBe(made.get('Password'));
    expect(made.get('Password')).toMatch(/^(?=.*[A-Z])(?=.*[a-z])(?=.*\d).{20}$/);
    const domainMade = s.fake.received('POST', `${API}/SIP/Domains.json`)[0]!.form();
    expect(domainMade.get('SipRegistration')).toBe('true');
    expect(domainMade.get('VoiceUrl')).toBe('https://app.example.com/webhooks/twilio/voice/outgoing');
    expect(
      s.fake.received('POST', /\/Auth\/(Registrations|Calls)\/CredentialListMappings\.json$/),
    ).toHaveLength(2);

    // Asked again: the same login, no password, nothing made twice.
    const again = (await deskPhone({ location_id: location })).json().body;
    expect(again).toMatchObject({ username: body.username, password: null });
    expect(s.fake.received('POST', `${API}/SIP/CredentialLists/${LIST_SID}/Credentials.json`)).toHaveLength(
      1,
    );
    expect(s.fake.received('POST', `${API}/SIP/Domains.json`)).toHaveLength(1);

    // Reset: a new password on the same credential.
    const reset = (await deskPhone({ location_id: location, reset: true })).json().body;
    const changed = s.fake
      .received('POST', `${API}/SIP/CredentialLists/${LIST_SID}/Credentials/${CREDENTIAL_SID}.json`)[0]!
      .form();
    expect(open(reset.password, login)).toBe(changed.get('Password'));
    expect(changed.get('Password')).not.toBe(made.get('Password'));

    const status = await s.t.request({
      method: 'GET',
      url: `/api/v1/user/me/sip-status?location_id=${location}`,
      token: login.token,
    });
    expect(status.json().body).toEqual({
      location_id: location,
      has_credentials: true,
      server: domain,
      username: body.username,
      last_call_at: null,
    });
  });

  it('rings the desk phone with the browsers, and a call it places goes out as the location and counts as its use', async () => {
    const username = (await deskPhone({ location_id: location })).json().body.username as string;
    const ring = await postTwilio(s.t, '/webhooks/twilio/voice/incoming', {
      AccountSid: TWILIO_SID,
      CallSid: `CA${'5'.repeat(32)}`,
      From: '+61491570071',
      To: NUMBER,
    });
    expect(ring.body).toContain(`>sip:${username}@${domain}</Sip>`);

    const placed = await postTwilio(s.t, '/webhooks/twilio/voice/outgoing', {
      AccountSid: TWILIO_SID,
      CallSid: `CA${'6'.repeat(32)}`,
      From: `sip:${username}@${domain}`,
      To: `sip:0491570156@${domain}`,
    });
    expect(placed.body).toContain('callerId="+61491570110"');
    expect(placed.body).toContain('>+61491570156</Number>');
    const staffId = (await getMe(s.t, login.token)).id;
    const [call] = await s.t.database.db
      .select()
      .from(calls)
      .where(eq(calls.provider_call_sid, `CA${'6'.repeat(32)}`));
    expect(call).toMatchObject({ direction: 'out', user_id: staffId });
    const status = await s.t.request({
      method: 'GET',
      url: `/api/v1/user/me/sip-status?location_id=${location}`,
      token: login.token,
    });
    expect(status.json().body.last_call_at).not.toBeNull();
  });

  it('keeps other businesses out', async () => {
    const north = await s.t.login(DEMO_LOGINS.northsideOwner);
    expect((await deskPhone({ location_id: location }, north)).statusCode).toBe(404);
    const status = await s.t.request({
      method: 'GET',
      url: `/api/v1/user/me/sip-status?location_id=${location}`,
      token: north,
    });
    expect(status.statusCode).toBe(404);
  });

  it('removes the desk phone logins with the Twilio account they live on', async () => {
    expect(
      (await s.t.request({ method: 'DELETE', url: `/api/v1/channels/${channelId}`, token: s.owner }))
        .statusCode,
    ).toBe(200);
    const status = await s.t.request({
      method: 'GET',
      url: `/api/v1/user/me/sip-status?location_id=${location}`,
      token: login.token,
    });
    expect(status.json().body).toMatchObject({ has_credentials: false, username: null });
  });
});
