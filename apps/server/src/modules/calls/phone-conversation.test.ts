import { messages } from '@switchboard/db';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../test/helpers.ts';
import {
  type ChannelSuite,
  connect,
  postTwilio,
  SETUP_TIMEOUT_MS,
  SUITE_TIMEOUTS,
  startChannelSuite,
  TWILIO_SID,
} from '../channels/test-support.ts';

const NUMBER = '+61491570111';
const VOICE = '/webhooks/twilio/voice';
const MESSAGES_API = `/2010-04-01/Accounts/${TWILIO_SID}/Messages.json`;

/** A receptionist's day: whatever mix of texts and calls, one person has one conversation per location. */
describe('texts and calls from one number are one conversation at the location', SUITE_TIMEOUTS, () => {
  let s: ChannelSuite;
  let location: string;
  let sid = 0;
  const next = (prefix: string) => `${prefix}${String(++sid).padStart(32 - prefix.length, '0')}`;

  beforeAll(async () => {
    s = await startChannelSuite();
    location = s.locations[0];
    await connect(s.t, s.owner, {
      location_id: location,
      provider: 'twilio',
      config: {
        account_sid: TWILIO_SID,
        auth_token: '0123456789abcdef0123456789abcdef',
        phone_number: NUMBER,
      },
    });
    s.fake.on('POST', MESSAGES_API, {
      status: 201,
      json: { sid: 'SMsent000000000000000000000000001', status: 'queued' },
    });
  }, SETUP_TIMEOUT_MS);
  afterAll(() => s.close());

  const text = (from: string, body: string) =>
    postTwilio(s.t, '/webhooks/twilio/messaging', {
      AccountSid: TWILIO_SID,
      MessageSid: next('SM'),
      From: from,
      To: NUMBER,
      Body: body,
      NumMedia: '0',
    });
  const ring = async (from: string) => {
    const CallSid = next('CA');
    const res = await postTwilio(s.t, `${VOICE}/incoming`, {
      AccountSid: TWILIO_SID,
      CallSid,
      CallStatus: 'ringing',
      Direction: 'inbound',
      From: from,
      To: NUMBER,
    });
    expect(res.statusCode, res.body).toBe(200);
    return CallSid;
  };
  /** The open enquiries the inbox finds for the number, as `GET /enquiries?status=open&q=` lists them. */
  const openFor = async (phone: string) => {
    const res = await s.t.request({
      method: 'GET',
      url: `/api/v1/enquiries?status=open&q=${encodeURIComponent(phone)}`,
      token: s.owner,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().body.items as { id: string; channel: string }[];
  };
  const thread = (enquiryId: string) =>
    s.t.database.db
      .select()
      .from(messages)
      .where(eq(messages.enquiry_id, enquiryId))
      .orderBy(asc(messages.created_at));
  const textsTo = (phone: string) =>
    s.fake.received('POST', MESSAGES_API).filter((r) => r.form().get('To') === phone);

  it("a text after a voicemail and the missed-call text joins the call's conversation", async () => {
    const caller = '+61412000030';
    const set = await s.t.request({
      method: 'PATCH',
      url: `/api/v1/business/locations/${location}`,
      token: s.owner,
      payload: { missed_call_text: 'Sorry we missed your call. We will ring you back.' },
    });
    expect(set.statusCode, set.body).toBe(200);

    const CallSid = await ring(caller);
    await postTwilio(s.t, `${VOICE}/dial-action`, {
      AccountSid: TWILIO_SID,
      CallSid,
      DialCallStatus: 'no-answer',
    });
    await postTwilio(s.t, `${VOICE}/recording-status`, {
      AccountSid: TWILIO_SID,
      CallSid,
      RecordingSid: 'REthread000000000000000000000001',
      RecordingUrl: `${s.fake.url}/2010-04-01/Accounts/${TWILIO_SID}/Recordings/REthread000000000000000000000001`,
      RecordingStatus: 'completed',
      RecordingDuration: '12',
      RecordingChannels: '1',
      RecordingSource: 'RecordVerb',
    });
    await eventually(async () => textsTo(caller)[0]);
    const [call] = await openFor(caller);
    expect(call!.channel).toBe('phone_call');

    expect((await text(caller, 'Hi, returning your call, can I book Friday?')).statusCode).toBe(200);
    const open = await openFor(caller);
    expect(open.map((e) => e.id)).toEqual([call!.id]);
    const lines = await thread(call!.id);
    expect(lines.map((m) => [m.direction, m.channel])).toEqual([
      ['in', 'phone_call'],
      ['out', 'phone_call'],
      ['in', 'sms'],
    ]);
    expect(lines[1]!.meta).toMatchObject({ auto: 'missed_call_text', delivered_via: 'sms' });

    await s.t.request({
      method: 'PATCH',
      url: `/api/v1/business/locations/${location}`,
      token: s.owner,
      payload: { missed_call_text: null },
    });
  });

  it("the customer's answer to a staff text in a call conversation joins it", async () => {
    const caller = '+61412000031';
    const CallSid = await ring(caller);
    await postTwilio(s.t, `${VOICE}/status`, { AccountSid: TWILIO_SID, CallSid, CallStatus: 'no-answer' });
    const [call] = await openFor(caller);
    const reply = await s.t.request({
      method: 'POST',
      url: `/api/v1/enquiries/${call!.id}/messages`,
      token: s.staff,
      payload: { message: 'Sorry we missed you, when suits?' },
    });
    expect(reply.statusCode, reply.body).toBe(200);
    await eventually(async () => textsTo(caller)[0]);

    expect((await text(caller, 'Thursday at 10 please')).statusCode).toBe(200);
    expect((await openFor(caller)).map((e) => e.id)).toEqual([call!.id]);
    expect((await thread(call!.id)).map((m) => m.message)).toEqual([
      'Missed call',
      'Sorry we missed you, when suits?',
      'Thursday at 10 please',
    ]);
  });

  it('a call from a number with an open text conversation joins it; the reply goes by SMS', async () => {
    const caller = '+61412000032';
    expect((await text(caller, 'Do you see children?')).statusCode).toBe(200);
    const [texted] = await openFor(caller);
    await ring(caller);
    expect((await openFor(caller)).map((e) => e.id)).toEqual([texted!.id]);
    expect((await thread(texted!.id)).map((m) => m.channel)).toEqual(['sms', 'phone_call']);
    const route = await s.t.request({
      method: 'GET',
      url: `/api/v1/enquiries/${texted!.id}/reply-route`,
      token: s.owner,
    });
    expect(route.json().body.route).toBe('channel');
  });
});
