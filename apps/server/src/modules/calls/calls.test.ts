import { callPresence, calls, locations, messages } from '@switchboard/db';
import type { CallEvent } from '@switchboard/shared';
import { and, eq } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { voiceIdentity } from '../../channels/twilio/voice.ts';
import { DEMO_LOGINS, eventually, getMe, inbound, listen, openSocket } from '../../test/helpers.ts';
import {
  type ChannelSuite,
  connect,
  fixtureJson,
  postTwilio,
  SETUP_TIMEOUT_MS,
  SUITE_TIMEOUTS,
  startChannelSuite,
  TWILIO_SID,
  type TwilioEnvelope,
} from '../channels/test-support.ts';
import { NO_TRANSCRIPTION } from './transcribe.ts';

const NUMBER = '+61491570110';
const CUSTOMER = '+61491570006';
const VOICE = '/webhooks/twilio/voice';

describe('phone calls through Twilio Voice', SUITE_TIMEOUTS, () => {
  let s: ChannelSuite;
  let location: string;
  let staffId: string;

  beforeAll(async () => {
    s = await startChannelSuite();
    location = s.locations[0];
    staffId = (await getMe(s.t, s.staff)).id;
    await connect(s.t, s.owner, {
      location_id: location,
      provider: 'twilio',
      config: {
        account_sid: TWILIO_SID,
        auth_token: '0123456789abcdef0123456789abcdef',
        phone_number: NUMBER,
      },
    });
  }, SETUP_TIMEOUT_MS);
  afterAll(() => s.close());

  const callOf = async (sid: string) =>
    (await s.t.database.db.select().from(calls).where(eq(calls.provider_call_sid, sid)))[0];
  const messageOf = async (id: string) =>
    (await s.t.database.db.select().from(messages).where(eq(messages.id, id)))[0]!;
  const ring = (sid: string, from = CUSTOMER) =>
    postTwilio(s.t, `${VOICE}/incoming`, {
      AccountSid: TWILIO_SID,
      CallSid: sid,
      CallStatus: 'ringing',
      Direction: 'inbound',
      From: from,
      To: NUMBER,
    });
  const status = (params: Record<string, string>) =>
    postTwilio(s.t, `${VOICE}/status`, { AccountSid: TWILIO_SID, ...params });

  it('refuses an unsigned call and stores nothing', async () => {
    const fixture = fixtureJson<TwilioEnvelope>('twilio-voice/incoming-call.json');
    const res = await s.t.request({
      method: 'POST',
      url: `${VOICE}/incoming`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: fixture.request.body,
    });
    expect(res.statusCode).toBe(403);
    expect(await callOf(fixture.params.CallSid!)).toBeUndefined();
  });

  it("puts a customer's call into the conversation they have open, and sends it to voicemail when nobody is available", async () => {
    // The customer texted first: the call joins that conversation.
    const text = await postTwilio(s.t, '/webhooks/twilio/messaging', {
      AccountSid: TWILIO_SID,
      MessageSid: 'SMcall000000000000000000000000001',
      From: CUSTOMER,
      To: NUMBER,
      Body: 'I will ring you in a minute',
      NumMedia: '0',
    });
    expect(text.statusCode).toBe(200);
    const [sms] = await s.t.database.db
      .select()
      .from(messages)
      .where(eq(messages.provider_message_id, 'SMcall000000000000000000000000001'));

    // The documented request, byte for byte, with its signature.
    const fixture = fixtureJson<TwilioEnvelope>('twilio-voice/incoming-call.json');
    const request = {
      method: 'POST' as const,
      url: `${VOICE}/incoming`,
      headers: {
        'content-type': fixture.request.headers['Content-Type']!,
        'x-twilio-signature': fixture.request.headers['X-Twilio-Signature']!,
      },
      payload: fixture.request.body,
    };
    const res = await s.t.request(request);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('text/xml');
    expect(res.body).toContain(
      '<Say>Thanks for calling Harbourside Dental Docklands. Nobody can take your call',
    );
    expect(res.body).toMatch(
      /<Record [^>]*recordingStatusCallback="https:\/\/app\.example\.com\/webhooks\/twilio\/voice\/recording-status"/,
    );

    const call = await callOf(fixture.params.CallSid!);
    expect(call).toMatchObject({
      direction: 'in',
      status: 'ringing',
      from_number: CUSTOMER,
      to_number: NUMBER,
    });
    expect(call!.enquiry_id).toBe(sms!.enquiry_id);
    const message = await messageOf(call!.message_id);
    expect(message).toMatchObject({ channel: 'phone_call', direction: 'in', message: 'Incoming call' });
    expect(message.meta.call).toMatchObject({ id: call!.id, status: 'ringing', from: CUSTOMER });

    // Twilio asks again (a retry): one call, one message.
    expect((await s.t.request(request)).statusCode).toBe(200);
    const all = await s.t.database.db
      .select()
      .from(calls)
      .where(eq(calls.provider_call_sid, fixture.params.CallSid!));
    expect(all).toHaveLength(1);
    expect(
      await s.t.database.db
        .select()
        .from(messages)
        .where(and(eq(messages.enquiry_id, call!.enquiry_id), eq(messages.channel, 'phone_call'))),
    ).toHaveLength(1);

    // Nobody answered; the caller leaves a voicemail, fetched with the account's credentials.
    const action = await postTwilio(s.t, `${VOICE}/dial-action`, {
      AccountSid: TWILIO_SID,
      CallSid: fixture.params.CallSid!,
      DialCallStatus: 'no-answer',
    });
    expect(action.body).toContain('<Record ');
    s.fake.on('GET', /\/Recordings\/REvoicemail1\.mp3$/, {
      body: Buffer.from('ID3-fake-mp3-bytes'),
      headers: { 'content-type': 'audio/mpeg' },
    });
    const recording = await postTwilio(s.t, `${VOICE}/recording-status`, {
      AccountSid: TWILIO_SID,
      CallSid: fixture.params.CallSid!,
      RecordingSid: 'REvoicemail1',
      RecordingUrl: `${s.fake.url}/2010-04-01/Accounts/${TWILIO_SID}/Recordings/REvoicemail1`,
      RecordingStatus: 'completed',
      RecordingDuration: '42',
      RecordingChannels: '1',
      RecordingSource: 'RecordVerb',
    });
    expect(recording.statusCode).toBe(200);
    const voicemail = await eventually(async () => {
      const m = await messageOf(call!.message_id);
      return m.attachments.length ? m : null;
    });
    expect(voicemail.message).toBe('Voicemail (00:42)');
    expect(voicemail.attachments[0]).toMatchObject({ content_type: 'audio/mpeg' });
    // No speech-to-text service here: the call says so instead of failing silently.
    const noted = await eventually(async () => {
      const m = await messageOf(call!.message_id);
      return m.meta.call_transcript_note ? m : null;
    });
    expect(noted.meta.call_transcript_note).toBe(NO_TRANSCRIPTION);
    expect(noted.call_transcription_status).toBe('not_started');
    const download = s.fake.received('GET', /\/Recordings\/REvoicemail1\.mp3$/)[0]!;
    expect(download.headers.authorization).toBe(
      `Basic ${Buffer.from(`${TWILIO_SID}:0123456789abcdef0123456789abcdef`).toString('base64')}`,
    );
  });

  it('rings every available browser at the location; the first to answer takes the call, and late callbacks never undo it', async () => {
    await s.t.database.db.insert(callPresence).values({
      user_id: staffId,
      location_id: location,
      business_id: (await getMe(s.t, s.staff)).businesses.find((b) => b.selected)!.id,
      available_until: new Date(Date.now() + 60_000),
    });
    const res = await ring('CAanswered0000000000000000000000001', '+61491570021');
    const identity = voiceIdentity(staffId, location);
    expect(res.body).toContain(`<Identity>${identity}</Identity>`);
    const call = (await callOf('CAanswered0000000000000000000000001'))!;
    expect(res.body).toContain(`<Parameter name="enquiryId" value="${call.enquiry_id}"/>`);

    // Sam's browser leg answers.
    await status({
      CallSid: 'CAchildleg000000000000000000000001',
      ParentCallSid: 'CAanswered0000000000000000000000001',
      CallStatus: 'in-progress',
      Direction: 'outbound-dial',
      To: `client:${identity}`,
    });
    expect(await callOf('CAanswered0000000000000000000000001')).toMatchObject({
      user_id: staffId,
      status: 'in-progress',
    });
    await status({
      CallSid: 'CAanswered0000000000000000000000001',
      CallStatus: 'completed',
      CallDuration: '125',
    });
    // A late "ringing" changes nothing.
    await status({ CallSid: 'CAanswered0000000000000000000000001', CallStatus: 'ringing' });
    const done = (await callOf('CAanswered0000000000000000000000001'))!;
    expect(done).toMatchObject({ status: 'completed', duration: 125, user_id: staffId });
    expect((await messageOf(done.message_id)).message).toBe('Call (02:05) answered by Sam');

    // The conversation is answered by text: to the caller's number, through the location's Twilio number.
    const route = await s.t.request({
      method: 'GET',
      url: `/api/v1/enquiries/${done.enquiry_id}/reply-route`,
      token: s.owner,
    });
    expect(route.json().body).toEqual({
      route: 'sms',
      detail: 'A reply to a call goes by SMS to +61491570021.',
    });
    s.fake.on('POST', `/2010-04-01/Accounts/${TWILIO_SID}/Messages.json`, {
      status: 201,
      json: { sid: 'SMreplytocall00000000000000000001', status: 'queued' },
    });
    const reply = await s.t.request({
      method: 'POST',
      url: `/api/v1/enquiries/${done.enquiry_id}/messages`,
      token: s.owner,
      payload: { message: 'Thanks for calling, see you at 3.' },
    });
    expect(reply.statusCode, reply.body).toBe(200);
    const sent = await eventually(
      async () => s.fake.received('POST', `/2010-04-01/Accounts/${TWILIO_SID}/Messages.json`)[0],
    );
    expect(Object.fromEntries(sent.form())).toMatchObject({
      To: '+61491570021',
      From: NUMBER,
      Body: 'Thanks for calling, see you at 3.',
    });
    const stored = await eventually(async () => {
      const m = await messageOf(reply.json().body.id);
      return m.status === 'sent' ? m : null;
    });
    expect(stored.meta).toMatchObject({ delivered_via: 'sms', sms_to: '+61491570021' });

    // Answered: the dial action hangs up instead of offering voicemail.
    const action = await postTwilio(s.t, `${VOICE}/dial-action`, {
      AccountSid: TWILIO_SID,
      CallSid: 'CAanswered0000000000000000000000001',
      DialCallStatus: 'completed',
    });
    expect(action.body).not.toContain('<Record');
  });

  it("hands an answered call to an available teammate by pointing the caller's leg at their browser", async () => {
    const ownerId = (await getMe(s.t, s.owner)).id;
    const businessId = (await getMe(s.t, s.staff)).businesses.find((b) => b.selected)!.id;
    await s.t.database.db
      .insert(callPresence)
      .values(
        [staffId, ownerId].map((user_id) => ({
          user_id,
          location_id: location,
          business_id: businessId,
          available_until: new Date(Date.now() + 60_000),
        })),
      )
      .onConflictDoUpdate({
        target: [callPresence.user_id, callPresence.location_id],
        set: { available_until: new Date(Date.now() + 60_000) },
      });
    const parent = 'CAtransfer0000000000000000000000001';
    await ring(parent, '+61491570023');
    await status({
      CallSid: 'CAtransferchild00000000000000000001',
      ParentCallSid: parent,
      CallStatus: 'in-progress',
      Direction: 'outbound-dial',
      To: `client:${voiceIdentity(staffId, location)}`,
    });
    const call = (await callOf(parent))!;
    expect(call.user_id).toBe(staffId);
    s.fake.on('POST', `/2010-04-01/Accounts/${TWILIO_SID}/Calls/${parent}.json`, {
      json: { sid: parent, status: 'in-progress' },
    });
    // Sam's browser knows its own leg and the call's id (a <Parameter> of the ringing).
    const moved = await s.t.request({
      method: 'POST',
      url: '/api/v1/calls/transfer',
      token: s.staff,
      payload: { call_sid: 'CAtransferchild00000000000000000001', call_id: call.id, user_id: ownerId },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const update = s.fake.received('POST', `/2010-04-01/Accounts/${TWILIO_SID}/Calls/${parent}.json`)[0]!;
    const twiml = update.form().get('Twiml') ?? '';
    expect(twiml).toContain(`<Identity>${voiceIdentity(ownerId, location)}</Identity>`);
    expect(twiml).toContain(`<Parameter name="callId" value="${call.id}"/>`);
    expect(twiml).not.toContain(voiceIdentity(staffId, location));
    expect((await callOf(parent))!.user_id).toBeNull();

    // The owner's browser answers: the call is theirs.
    await status({
      CallSid: 'CAtransferchild00000000000000000002',
      ParentCallSid: parent,
      CallStatus: 'in-progress',
      Direction: 'outbound-dial',
      To: `client:${voiceIdentity(ownerId, location)}`,
    });
    expect((await callOf(parent))!.user_id).toBe(ownerId);

    // Twilio refusing the update leaves the call with whoever had it.
    s.fake.on('POST', `/2010-04-01/Accounts/${TWILIO_SID}/Calls/${parent}.json`, {
      status: 404,
      json: { code: 20404, message: 'The requested resource was not found' },
    });
    const refused = await s.t.request({
      method: 'POST',
      url: '/api/v1/calls/transfer',
      token: s.owner,
      payload: { call_sid: parent, user_id: staffId },
    });
    expect(refused.statusCode).toBe(422);
    expect((await callOf(parent))!.user_id).toBe(ownerId);
  });

  it('sends callers straight to voicemail outside opening hours', async () => {
    const closed = { sun: [], mon: [], tue: [], wed: [], thu: [], fri: [], sat: [] };
    await s.t.database.db.update(locations).set({ opening_hours: closed }).where(eq(locations.id, location));
    const res = await ring('CAclosed00000000000000000000000001', '+61491570022');
    expect(res.body).toContain('We are closed right now');
    expect(res.body).not.toContain('<Dial');
    await s.t.database.db.update(locations).set({ opening_hours: null }).where(eq(locations.id, location));
  });

  it('sends callers straight to voicemail on a holiday, though the location keeps no hours', async () => {
    const [place] = await s.t.database.db.select().from(locations).where(eq(locations.id, location));
    const zone = place!.timezone ?? 'Australia/Melbourne';
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(new Date());
    const yesterday = new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(Date.now() - 86_400_000);
    await s.t.database.db
      .update(locations)
      .set({ timezone: zone, holidays: [{ date: today, name: 'Closed' }] })
      .where(eq(locations.id, location));
    const res = await ring('CAholiday0000000000000000000000001', '+61491570023');
    expect(res.body).toContain('We are closed right now');
    expect(res.body).not.toContain('<Dial');
    // A holiday already past rings the team as before.
    await s.t.database.db
      .update(locations)
      .set({ holidays: [{ date: yesterday, name: null }] })
      .where(eq(locations.id, location));
    expect((await ring('CAholiday0000000000000000000000002', '+61491570024')).body).toContain('<Dial');
    await s.t.database.db
      .update(locations)
      .set({ timezone: place!.timezone, holidays: [] })
      .where(eq(locations.id, location));
  });

  it('ignores a status callback signed with the wrong token', async () => {
    const res = await postTwilio(
      s.t,
      `${VOICE}/status`,
      { AccountSid: TWILIO_SID, CallSid: 'CAclosed00000000000000000000000001', CallStatus: 'completed' },
      { token: 'ffffffffffffffffffffffffffffffff' },
    );
    expect(res.statusCode).toBe(403);
    expect(await callOf('CAclosed00000000000000000000000001')).toMatchObject({ status: 'ringing' });
  });

  it("places a browser's call as the location's number, in the customer's conversation, and follows the customer's leg", async () => {
    const identity = voiceIdentity(staffId, location);
    const place = (sid: string, to: string, extra: Record<string, string> = {}) =>
      postTwilio(s.t, `${VOICE}/outgoing`, {
        AccountSid: TWILIO_SID,
        ApplicationSid: 'APdddddddddddddddddddddddddddddddd',
        CallSid: sid,
        CallStatus: 'ringing',
        Direction: 'inbound',
        From: `client:${identity}`,
        Caller: `client:${identity}`,
        To: to,
        ...extra,
      });
    // Typed as the customer gave it, read in the business's country.
    const res = await place('CAout000000000000000000000000000001', '0491 570 156');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><Response><Dial callerId="+61491570110" answerOnBridge="true" timeout="30" action="https://app.example.com/webhooks/twilio/voice/dial-action" record="record-from-answer-dual" recordingStatusCallback="https://app.example.com/webhooks/twilio/voice/recording-status"><Number statusCallback="https://app.example.com/webhooks/twilio/voice/status" statusCallbackEvent="initiated ringing answered completed" statusCallbackMethod="POST">+61491570156</Number></Dial></Response>',
    );
    const call = (await callOf('CAout000000000000000000000000000001'))!;
    expect(call).toMatchObject({
      direction: 'out',
      user_id: staffId,
      to_number: '+61491570156',
      status: 'initiated',
    });
    const message = await messageOf(call.message_id);
    expect(message).toMatchObject({
      direction: 'out',
      channel: 'phone_call',
      team_user_id: staffId,
      message: 'Calling…',
    });
    const enquiry = (
      await s.t.request({ method: 'GET', url: `/api/v1/enquiries/${call.enquiry_id}`, token: s.owner })
    ).json().body;
    expect(enquiry).toMatchObject({ channel: 'phone_call', assigned_to: staffId, status: 'open' });

    // The customer's leg answers and ends: the call shows how long it was.
    const leg = {
      ParentCallSid: 'CAout000000000000000000000000000001',
      Direction: 'outbound-dial',
      To: '+61491570156',
    };
    await status({ CallSid: 'CAoutleg0000000000000000000000001', CallStatus: 'in-progress', ...leg });
    await status({
      CallSid: 'CAoutleg0000000000000000000000001',
      CallStatus: 'completed',
      CallDuration: '61',
      ...leg,
    });
    expect((await messageOf(call.message_id)).message).toBe('Outgoing call (01:01)');

    // A second call to them, started from that conversation, joins it.
    await place('CAout000000000000000000000000000002', '+61491570156', { enquiryId: call.enquiry_id });
    expect((await callOf('CAout000000000000000000000000000002'))!.enquiry_id).toBe(call.enquiry_id);
  });

  it('refuses a call it cannot place, and one from a browser of another location or no one', async () => {
    const identity = voiceIdentity(staffId, location);
    const place = (from: string, to: string) =>
      postTwilio(s.t, `${VOICE}/outgoing`, {
        AccountSid: TWILIO_SID,
        CallSid: `CA${'9'.repeat(32)}`,
        From: from,
        To: to,
      });
    expect((await place(`client:${identity}`, '12')).body).toContain(
      '<Say>That is not a phone number we can call.</Say>',
    );
    expect((await place(`client:${voiceIdentity(staffId, s.locations[1])}`, '+61491570156')).body).toContain(
      'cannot place calls for the business',
    );
    expect((await place('client:agent_jane', '+61491570156')).body).toContain(
      'cannot place calls for the business',
    );
    expect(await callOf(`CA${'9'.repeat(32)}`)).toBeUndefined();
  });

  it("rings the location for a campaign's tracking number and attributes the call to the campaign", async () => {
    const add = (payload: object, token = s.owner, loc = location) =>
      s.t.request({
        method: 'POST',
        url: `/api/v1/business/locations/${loc}/tracking-numbers`,
        token,
        payload,
      });
    const TRACKED = '+61491570177';
    // Refused: staff, a number that is none, the location's own number, another business's location.
    expect((await add({ number: TRACKED, source: 'flyer' }, s.staff)).statusCode).toBe(403);
    const bad = await add({ number: '12', source: 'flyer' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('valid phone number');
    expect((await add({ number: NUMBER, source: 'flyer' })).statusCode).toBe(422);
    const north = await s.t.login(DEMO_LOGINS.northsideOwner);
    expect((await add({ number: TRACKED, source: 'flyer' }, north)).statusCode).toBe(404);
    const made = await add({
      number: '0491 570 177',
      source: 'flyer',
      medium: 'print',
      campaign: 'letterbox-nov',
    });
    expect(made.statusCode, made.body).toBe(200);
    expect(made.json().body).toMatchObject({
      number: TRACKED,
      source: 'flyer',
      medium: 'print',
      location_id: location,
    });
    expect((await add({ number: TRACKED, source: 'again' })).statusCode).toBe(409);
    const listed = await s.t.request({
      method: 'GET',
      url: `/api/v1/business/locations/${location}/tracking-numbers`,
      token: s.staff,
    });
    expect(listed.json().body.items.map((t: { number: string }) => t.number)).toEqual([TRACKED]);

    // A new caller dials the flyer's number: the location rings and the call is the flyer's.
    const sid = 'CAtracked000000000000000000000000001';
    const twiml = await postTwilio(s.t, `${VOICE}/incoming`, {
      AccountSid: TWILIO_SID,
      CallSid: sid,
      CallStatus: 'ringing',
      Direction: 'inbound',
      From: '+61491570078',
      To: TRACKED,
    });
    expect(twiml.body).not.toContain('not in service');
    const call = (await callOf(sid))!;
    expect(call).toMatchObject({ location_id: location, to_number: TRACKED });
    const history = await s.t.request({
      method: 'GET',
      url: '/api/v1/calls?campaign=letterbox-nov',
      token: s.owner,
    });
    expect(history.json().body.items).toEqual([
      expect.objectContaining({
        from: '+61491570078',
        source: 'flyer',
        medium: 'print',
        campaign: 'letterbox-nov',
      }),
    ]);

    // Removed: the number rings nothing any more.
    const removed = await s.t.request({
      method: 'DELETE',
      url: `/api/v1/business/locations/${location}/tracking-numbers/${made.json().body.id}`,
      token: s.owner,
    });
    expect(removed.statusCode).toBe(200);
    expect(
      (
        await s.t.request({
          method: 'DELETE',
          url: `/api/v1/business/locations/${location}/tracking-numbers/not-an-id`,
          token: s.owner,
        })
      ).statusCode,
    ).toBe(404);
    const after = await postTwilio(s.t, `${VOICE}/incoming`, {
      AccountSid: TWILIO_SID,
      CallSid: 'CAtracked000000000000000000000000002',
      From: '+61491570079',
      To: TRACKED,
    });
    expect(after.body).toContain('not in service');
  });

  it('lists the call history with the phone-call filters, newest first, for this business only', async () => {
    // A customer who found the business through a Google ad, texting first and then calling.
    await inbound(s.t, s.owner, {
      location_id: location,
      from: { phone: '+61491570041' },
      message: 'Saw your ad',
      source: 'google',
      medium: 'cpc',
      campaign: 'spring',
    });
    await ring('CAfromad000000000000000000000000001', '+61491570041');
    const list = async (query = '', token = s.owner) => {
      const res = await s.t.request({ method: 'GET', url: `/api/v1/calls${query}`, token });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().body as { items: Record<string, unknown>[]; total: number; page_size: number };
    };
    const all = await list('?page_size=100');
    expect(all.total).toBe(all.items.length);
    expect(all.items[0]).toMatchObject({ from: '+61491570041', direction: 'in', status: 'ringing' });
    expect((await list()).page_size).toBe(10);

    const fromAd = await list('?source=google&medium=cpc&campaign=spring');
    expect(fromAd.items.map((c) => c.from)).toEqual(['+61491570041']);
    expect(fromAd.items[0]).toMatchObject({ source: 'google', medium: 'cpc', campaign: 'spring' });

    const out = await list('?direction=out&page_size=100');
    expect(out.items.length).toBeGreaterThan(0);
    expect(out.items.every((c) => c.direction === 'out')).toBe(true);
    const answered = (await list('?status=completed&direction=in')).items;
    expect(answered.map((c) => c.user)).toEqual([{ id: staffId, full_name: 'Sam Nguyen' }]);
    // The voicemail from the first test is a missed call, with its recording.
    const missed = (await list('?status=missed')).items;
    expect(missed.some((c) => c.voicemail === true && (c.recording as { url: string } | null)?.url)).toBe(
      true,
    );

    const today = new Date().toISOString().slice(0, 10);
    expect((await list(`?start_date=${today}&end_date=${today}&page_size=100`)).total).toBe(all.total);
    expect((await list('?start_date=2020-01-01&end_date=2020-01-02')).total).toBe(0);
    expect(
      (await s.t.request({ method: 'GET', url: '/api/v1/calls?start_date=yesterday', token: s.owner }))
        .statusCode,
    ).toBe(400);
    expect(
      (await s.t.request({ method: 'GET', url: '/api/v1/calls?status=lost', token: s.owner })).statusCode,
    ).toBe(400);

    const north = await s.t.login(DEMO_LOGINS.northsideOwner);
    expect((await list('', north)).total).toBe(0);
  });

  it("texts a caller nobody answered with the location's text, once, when the location asks for it", async () => {
    const bad = await s.t.request({
      method: 'PATCH',
      url: `/api/v1/business/locations/${location}`,
      token: s.owner,
      payload: { missed_call_text: 'Call {customer_phone} back' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('Only these placeholders can be used');
    const set = await s.t.request({
      method: 'PATCH',
      url: `/api/v1/business/locations/${location}`,
      token: s.owner,
      payload: { missed_call_text: 'Sorry we missed your call at {location_name}. We will ring you back.' },
    });
    expect(set.statusCode, set.body).toBe(200);
    s.fake.on('POST', `/2010-04-01/Accounts/${TWILIO_SID}/Messages.json`, {
      status: 201,
      json: { sid: 'SMtextback000000000000000000000001', status: 'queued' },
    });
    const texts = () =>
      s.fake
        .received('POST', `/2010-04-01/Accounts/${TWILIO_SID}/Messages.json`)
        .filter((r) => r.form().get('To') === '+61491570062');

    await ring('CAmissed00000000000000000000000001', '+61491570062');
    await status({ CallSid: 'CAmissed00000000000000000000000001', CallStatus: 'no-answer' });
    const sent = await eventually(async () => texts()[0]);
    expect(Object.fromEntries(sent.form())).toMatchObject({
      From: NUMBER,
      Body: 'Sorry we missed your call at Harbourside Dental Docklands. We will ring you back.',
    });
    const call = (await callOf('CAmissed00000000000000000000000001'))!;
    const thread = await s.t.database.db
      .select()
      .from(messages)
      .where(eq(messages.enquiry_id, call.enquiry_id));
    expect(thread.find((m) => m.direction === 'out')).toMatchObject({ meta: { auto: 'missed_call_text' } });

    // A late callback, or the voicemail's, sends nothing more.
    await status({
      CallSid: 'CAmissed00000000000000000000000001',
      CallStatus: 'completed',
      CallDuration: '3',
    });
    await new Promise((r) => setTimeout(r, 1500));
    expect(texts()).toHaveLength(1);
    await s.t.request({
      method: 'PATCH',
      url: `/api/v1/business/locations/${location}`,
      token: s.owner,
      payload: { missed_call_text: null },
    });
  });

  it('tells every screen at the location who is calling, and when the call is over; no other business hears it', async () => {
    const url = await listen(s.t);
    const sockets: Socket[] = [];
    try {
      const staff = await openSocket(url, s.staff, sockets);
      const north = await openSocket(url, await s.t.login(DEMO_LOGINS.northsideOwner), sockets);
      const heard: { event: string; call: CallEvent }[] = [];
      const leaked: unknown[] = [];
      for (const event of ['call.incoming', 'call.updated']) {
        staff.on(event, (call: CallEvent) => heard.push({ event, call }));
        north.on(event, (call: unknown) => leaked.push(call));
      }
      await ring('CAlive00000000000000000000000000001', '+61491570081');
      const incoming = await eventually(async () => heard.find((h) => h.event === 'call.incoming')?.call);
      expect(incoming).toMatchObject({
        direction: 'in',
        from: '+61491570081',
        status: 'ringing',
        location_id: location,
      });
      await status({ CallSid: 'CAlive00000000000000000000000000001', CallStatus: 'no-answer' });
      await eventually(async () =>
        heard.find((h) => h.event === 'call.updated' && h.call.status === 'no-answer'),
      );
      expect(leaked).toEqual([]);
    } finally {
      for (const socket of sockets) socket.disconnect();
    }
  });
});
