import { calls, enquiries, messages } from '@switchboard/db';
import type { ClientToServerEvents, PhoneAck, PhoneRing, ServerToClientEvents } from '@switchboard/shared';
import { eq } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pcmWav } from '../../lib/wav.ts';
import {
  createTestApp,
  DEMO_LOGINS,
  eventually,
  getMe,
  listen,
  openSocket,
  selectedLocation,
  type TestApp,
} from '../../test/helpers.ts';

type Client = Socket<ServerToClientEvents, ClientToServerEvents>;

/** `seconds` of silence with `channels` channels at 8 kHz. */
const wav = (seconds: number, channels: number) =>
  pcmWav(Buffer.alloc(8000 * seconds * channels * 2), 8000, channels);

describe('sandbox calls', () => {
  let t: TestApp;
  let url: string;
  let owner: string;
  let staff1: string;
  let staff2: string;
  let loc: string;
  const clients: Client[] = [];
  const open = (token: string) => openSocket<Client>(url, token, clients as Socket[]);
  const ack = <T extends unknown[]>(socket: Client, event: keyof ClientToServerEvents, ...args: T) =>
    new Promise<PhoneAck>((resolve) =>
      (socket.emit as (...a: unknown[]) => void)(event, ...args, (r: PhoneAck) => resolve(r)),
    );
  const record = <E extends keyof ServerToClientEvents>(socket: Client, event: E) => {
    const seen: Parameters<ServerToClientEvents[E]>[0][] = [];
    socket.on(event, ((payload: Parameters<ServerToClientEvents[E]>[0]) => seen.push(payload)) as never);
    return seen;
  };
  const callOf = async (sid: string) =>
    (await t.database.db.select().from(calls).where(eq(calls.provider_call_sid, sid)))[0]!;
  const available = (token: string) =>
    t.app.inject({
      method: 'PUT',
      url: '/api/v1/calls/presence',
      headers: { authorization: `Bearer ${token}` },
      payload: { location_id: loc, available: true },
    });
  /** A staff browser with its sandbox phone registered and its person available. */
  const phone = async (token: string) => {
    const socket = await open(token);
    expect((await available(token)).statusCode).toBe(200);
    expect(await ack(socket, 'phone.register', { location_id: loc, on: true })).toEqual({ ok: true });
    return socket;
  };

  beforeAll(async () => {
    t = await createTestApp();
    url = await listen(t);
    owner = await t.login(DEMO_LOGINS.owner);
    staff1 = await t.login(DEMO_LOGINS.staff1);
    staff2 = await t.login(DEMO_LOGINS.staff2);
    loc = await selectedLocation(t, owner);
  });
  afterAll(async () => {
    for (const c of clients) c.disconnect();
    await t.close();
  });

  it('says which phone a browser uses: the sandbox one in sandbox mode, and 404 for another business', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/calls/phone?location_id=${loc}`,
      headers: { authorization: `Bearer ${staff1}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().body).toMatchObject({ location_id: loc, provider: 'sandbox', reason: null });
    const north = await t.login(DEMO_LOGINS.northsideOwner);
    const other = await t.app.inject({
      method: 'GET',
      url: `/api/v1/calls/phone?location_id=${loc}`,
      headers: { authorization: `Bearer ${north}` },
    });
    expect(other.statusCode).toBe(404);
  });

  it('rings every available phone; the first to answer takes it, the others stop; the ends talk; hang up completes it', async () => {
    const sam = await phone(staff1);
    const priya = await phone(staff2);
    const simulator = await open(owner);
    const samRings = record(sam, 'phone.ring');
    const priyaRings = record(priya, 'phone.ring');
    const priyaStops = record(priya, 'phone.stop');
    const simulatorConnected = record(simulator, 'phone.connected');
    const simulatorSignals = record(simulator, 'phone.signal');
    const samEnded = record(sam, 'phone.ended');

    const rang = await ack(simulator, 'sandbox.call', { location_id: loc, from: '0491 570 031' });
    expect(rang).toMatchObject({ ok: true });
    const sid = (rang as { call_sid: string }).call_sid;
    await eventually(async () => samRings.length > 0 && priyaRings.length > 0);
    expect(samRings[0]).toMatchObject<Partial<PhoneRing>>({
      call_sid: sid,
      from: '+61491570031',
      location_id: loc,
    });
    expect((await callOf(sid)).status).toBe('ringing');

    expect(await ack(sam, 'phone.answer', { call_sid: sid })).toMatchObject({ ok: true });
    // Too late for the second.
    expect(await ack(priya, 'phone.answer', { call_sid: sid })).toMatchObject({ ok: false });
    await eventually(async () => priyaStops.some((s) => s.call_sid === sid && s.reason === 'answered'));
    await eventually(async () => simulatorConnected.length > 0);
    const samId = (await getMe(t, staff1)).id;
    expect(simulatorConnected[0]).toEqual({ call_sid: sid, answered_by: samId });
    const answered = await callOf(sid);
    expect(answered).toMatchObject({ status: 'in-progress', user_id: samId });

    // Negotiation passes between the ends of the call only; a signal that is not one is dropped.
    sam.emit('phone.signal', { call_sid: sid, signal: { kind: 'sdp', sdp: { type: 'answer', sdp: 'v=0' } } });
    sam.emit('phone.signal', { call_sid: sid, signal: { kind: 'dtmf', digits: 'rm -rf' } } as never);
    sam.emit('phone.signal', { call_sid: sid, signal: { kind: 'dtmf', digits: '12#' } });
    const priyaSignals = record(priya, 'phone.signal');
    await eventually(async () => simulatorSignals.length >= 2);
    expect(simulatorSignals.map((s) => s.signal)).toEqual([
      { kind: 'sdp', sdp: { type: 'answer', sdp: 'v=0' } },
      { kind: 'dtmf', digits: '12#' },
    ]);
    expect(priyaSignals).toEqual([]);

    simulator.emit('phone.hangup', { call_sid: sid });
    await eventually(async () => samEnded.some((e) => e.call_sid === sid));
    const ended = await callOf(sid);
    expect(ended.status).toBe('completed');
    expect(ended.duration).toBeGreaterThanOrEqual(0);

    // The recording the simulator sends is attached to the call and queued for transcription.
    const form = new FormData();
    form.set('file', new Blob([wav(2, 2)], { type: 'audio/wav' }), 'call.wav');
    const up = await fetch(`${url}/api/v1/sandbox/calls/${sid}/recording`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner}` },
      body: form,
    });
    expect(up.status).toBe(200);
    const withRecording = await callOf(sid);
    expect(withRecording.recording_upload_id).toBeTruthy();
    expect(withRecording.recording_channels).toBe(2);
    const [m] = await t.database.db.select().from(messages).where(eq(messages.id, withRecording.message_id));
    expect(m!.attachments).toEqual([expect.objectContaining({ content_type: 'audio/wav' })]);
    // Sent twice: refused, nothing changes.
    const again = await fetch(`${url}/api/v1/sandbox/calls/${sid}/recording`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner}` },
      body: form,
    });
    expect(again.status).toBe(409);
  });

  it('hands a call to an available teammate: their browser rings, the first leaves, the caller reconnects', async () => {
    const sam = await phone(staff1);
    const simulator = await open(owner);
    const samRings = record(sam, 'phone.ring');
    const rang = await ack(simulator, 'sandbox.call', { location_id: loc, from: '+61491570036' });
    const sid = (rang as { call_sid: string }).call_sid;
    await eventually(async () => samRings.some((r) => r.call_sid === sid));
    expect(await ack(sam, 'phone.answer', { call_sid: sid })).toMatchObject({ ok: true });
    const call = await callOf(sid);
    const transfer = (token: string, user_id: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/calls/transfer',
        headers: { authorization: `Bearer ${token}` },
        payload: { call_sid: sid, call_id: call.id, user_id },
      });
    const priyaId = (await getMe(t, staff2)).id;
    const samId = (await getMe(t, staff1)).id;

    // Priya is away: refused, and nothing changes.
    await t.app.inject({
      method: 'PUT',
      url: '/api/v1/calls/presence',
      headers: { authorization: `Bearer ${staff2}` },
      payload: { location_id: loc, available: false },
    });
    const away = await transfer(staff1, priyaId);
    expect(away.statusCode).toBe(422);
    expect(away.json().message).toBe('Priya Shah is not available for calls right now.');
    expect((await callOf(sid)).user_id).toBe(samId);
    // Only the person on the call hands it on; another business does not see it.
    expect((await transfer(owner, priyaId)).statusCode).toBe(403);
    expect((await transfer(await t.login(DEMO_LOGINS.northsideOwner), priyaId)).statusCode).toBe(404);

    // The transfer menu reads who is available at the location: Sam (on the phone), not Priya (away).
    const available = async () =>
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/v1/calls/presence?location_id=${loc}`,
          headers: { authorization: `Bearer ${staff1}` },
        })
      ).json().body.available as string[];
    expect(await available()).toContain(samId);
    expect(await available()).not.toContain(priyaId);
    const priya = await phone(staff2);
    expect(await available()).toContain(priyaId);
    const priyaRings = record(priya, 'phone.ring');
    const samEnded = record(sam, 'phone.ended');
    const customerTransfer = record(simulator, 'phone.transfer');
    const connected = record(simulator, 'phone.connected');
    const moved = await transfer(staff1, priyaId);
    expect(moved.statusCode).toBe(200);
    expect(moved.json().body).toEqual({ call_id: call.id, user_id: priyaId, full_name: 'Priya Shah' });
    await eventually(async () => priyaRings.some((r) => r.call_sid === sid));
    await eventually(async () => samEnded.some((e) => e.call_sid === sid && e.status === 'transferred'));
    await eventually(async () => customerTransfer.length > 0);
    expect((await callOf(sid)).user_id).toBeNull();
    // Sam left the call: his hanging up now changes nothing.
    sam.emit('phone.hangup', { call_sid: sid });
    expect(await ack(priya, 'phone.answer', { call_sid: sid })).toMatchObject({ ok: true });
    await eventually(async () => connected.some((c) => c.answered_by === priyaId));
    expect(await callOf(sid)).toMatchObject({ status: 'in-progress', user_id: priyaId });
    simulator.emit('phone.hangup', { call_sid: sid });
    await eventually(async () => (await callOf(sid)).status === 'completed');
    // The conversation keeps who answered first and whom the call went to; the call knows only who has it now.
    const [line] = await t.database.db.select().from(messages).where(eq(messages.id, call.message_id));
    expect(line!.meta.call_transfers).toEqual([
      {
        from: { id: samId, full_name: 'Sam Nguyen' },
        to: { id: priyaId, full_name: 'Priya Shah' },
        at: expect.any(String),
      },
    ]);
  });

  it('takes a voicemail when nobody is available, and a voicemail recording makes it one', async () => {
    const simulator = await open(owner);
    const voicemail = record(simulator, 'sandbox.voicemail');
    // Nobody registered at the location any more (the earlier sockets are gone).
    for (const c of clients.slice(0, -1)) c.disconnect();
    await eventually(async () => (await t.app.io.in(`phone:${loc}`).fetchSockets()).length === 0);
    const rang = await ack(simulator, 'sandbox.call', { location_id: loc, from: '+61491570032' });
    const sid = (rang as { call_sid: string }).call_sid;
    await eventually(async () => voicemail.some((v) => v.call_sid === sid));
    expect((await callOf(sid)).status).toBe('no-answer');
    const form = new FormData();
    form.set('file', new Blob([wav(3, 1)], { type: 'audio/wav' }), 'voicemail.wav');
    const up = await fetch(`${url}/api/v1/sandbox/calls/${sid}/recording?voicemail=true`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner}` },
      body: form,
    });
    expect(up.status).toBe(200);
    expect(await callOf(sid)).toMatchObject({ voicemail: true, duration: 3, recording_channels: 1 });
  });

  it("dials one of the location's tracking numbers, and the call is the campaign's", async () => {
    const simulator = await open(owner);
    const made = await t.app.inject({
      method: 'POST',
      url: `/api/v1/business/locations/${loc}/tracking-numbers`,
      headers: { authorization: `Bearer ${owner}` },
      payload: { number: '+61491570188', source: 'radio', campaign: 'breakfast-show' },
    });
    expect(made.statusCode, made.body).toBe(200);
    expect(
      await ack(simulator, 'sandbox.call', { location_id: loc, from: '+61491570037', to: '+61491570189' }),
    ).toMatchObject({ ok: false, message: expect.stringContaining('is not a number of') });
    const rang = await ack(simulator, 'sandbox.call', {
      location_id: loc,
      from: '+61491570037',
      to: '0491 570 188',
    });
    const call = await callOf((rang as { call_sid: string }).call_sid);
    expect(call.to_number).toBe('+61491570188');
    const [enquiry] = await t.database.db.select().from(enquiries).where(eq(enquiries.id, call.enquiry_id));
    expect(enquiry).toMatchObject({ source: 'radio', campaign: 'breakfast-show' });
  });

  it('refuses what is not a call of the business, and text that is not audio', async () => {
    const simulator = await open(owner);
    expect(await ack(simulator, 'sandbox.call', { location_id: loc, from: 'not a phone' })).toMatchObject({
      ok: false,
      message: expect.stringContaining('not a valid phone number'),
    });
    expect(await ack(simulator, 'sandbox.call', { location_id: 'nope', from: '+61491570033' })).toMatchObject(
      { ok: false, message: 'Location not found.' },
    );
    const rang = await ack(simulator, 'sandbox.call', { location_id: loc, from: '+61491570034' });
    const sid = (rang as { call_sid: string }).call_sid;
    const north = await t.login(DEMO_LOGINS.northsideOwner);
    const form = new FormData();
    form.set('file', new Blob([wav(1, 1)], { type: 'audio/wav' }), 'x.wav');
    const foreign = await fetch(`${url}/api/v1/sandbox/calls/${sid}/recording`, {
      method: 'POST',
      headers: { authorization: `Bearer ${north}` },
      body: form,
    });
    expect(foreign.status).toBe(404);
    const text = new FormData();
    text.set('file', new Blob(['hello'], { type: 'text/plain' }), 'x.txt');
    const notAudio = await fetch(`${url}/api/v1/sandbox/calls/${sid}/recording`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner}` },
      body: text,
    });
    expect(notAudio.status).toBe(415);
    expect((await callOf(sid)).recording_upload_id).toBeNull();
  });

  it('a staff browser calls a customer: refused with no simulator open, rung on the simulator when there is one', async () => {
    const sam = await open(staff1);
    for (const c of clients) if (c !== sam) c.disconnect();
    const refused = await ack(sam, 'phone.dial', { location_id: loc, to: '+61491570035' });
    expect(refused).toMatchObject({ ok: false, message: expect.stringContaining('open Sandbox') });

    const simulator = await open(owner);
    expect(await ack(simulator, 'sandbox.listen')).toEqual({ ok: true });
    const rings = record(simulator, 'sandbox.ring');
    const samConnected = record(sam, 'phone.connected');
    const dialed = await ack(sam, 'phone.dial', { location_id: loc, to: '0491 570 035' });
    expect(dialed).toMatchObject({ ok: true });
    const sid = (dialed as { call_sid: string }).call_sid;
    await eventually(async () => rings.some((r) => r.call_sid === sid));
    expect(rings[0]).toMatchObject({ to: '+61491570035' });
    expect((await callOf(sid)).status).toBe('ringing');
    expect(await ack(simulator, 'phone.answer', { call_sid: sid })).toMatchObject({ ok: true });
    await eventually(async () => samConnected.length > 0);
    expect((await callOf(sid)).status).toBe('in-progress');
    // The staff browser going away ends the call.
    sam.disconnect();
    await eventually(async () => (await callOf(sid)).status === 'completed');
  });

  it('with calling turned off for the business, every step of a sandbox call is refused as the calling routes are', async () => {
    const admin = await t.login(DEMO_LOGINS.admin);
    const business = (await getMe(t, owner)).businesses.find((b) => b.selected)!.id;
    const flags = (calls: boolean) =>
      t.app.inject({
        method: 'PATCH',
        url: `/api/v1/admin/businesses/${business}`,
        headers: { authorization: `Bearer ${admin}` },
        payload: { feature_flags: { calls } },
      });
    const [past] = await t.database.db.select().from(calls).where(eq(calls.business_id, business)).limit(1);
    expect((await flags(false)).statusCode).toBe(200);
    try {
      const route = await t.app.inject({
        method: 'GET',
        url: '/api/v1/calls',
        headers: { authorization: `Bearer ${owner}` },
      });
      expect(route.statusCode).toBe(403);
      const answer = { ok: false, message: route.json().message as string };
      expect(answer.message).toContain('turned off for your business');

      const sam = await open(staff1);
      const simulator = await open(owner);
      expect(await ack(sam, 'phone.register', { location_id: loc, on: true })).toEqual(answer);
      expect(await ack(simulator, 'sandbox.listen')).toEqual(answer);
      expect(await ack(simulator, 'sandbox.call', { location_id: loc, from: '+61491570041' })).toEqual(
        answer,
      );
      expect(await ack(sam, 'phone.dial', { location_id: loc, to: '+61491570041' })).toEqual(answer);
      expect(await ack(sam, 'phone.answer', { call_sid: past!.provider_call_sid })).toEqual(answer);
      expect(await t.database.db.select().from(calls).where(eq(calls.from_number, '+61491570041'))).toEqual(
        [],
      );

      const form = new FormData();
      form.set('file', new Blob([wav(1, 1)], { type: 'audio/wav' }), 'call.wav');
      const upload = await fetch(`${url}/api/v1/sandbox/calls/${past!.provider_call_sid}/recording`, {
        method: 'POST',
        headers: { authorization: `Bearer ${owner}` },
        body: form,
      });
      expect(upload.status).toBe(403);
      expect(((await upload.json()) as { message: string }).message).toBe(answer.message);
    } finally {
      expect((await flags(true)).statusCode).toBe(200);
    }
    const simulator = await open(owner);
    expect(await ack(simulator, 'sandbox.listen')).toEqual({ ok: true });
  });
});
