import { randomBytes } from 'node:crypto';
import { callPresence, calls } from '@switchboard/db';
import { answer, clipText, type PhoneAck, type PhoneRing, type PhoneSignal } from '@switchboard/shared';
import { and, eq, gt, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { RING_SECONDS } from '../../channels/twilio/voice.ts';
import { AppError } from '../../errors.ts';
import { saveUpload } from '../../lib/storage.ts';
import { wavChannels, wavSeconds } from '../../lib/wav.ts';
import { requireBusiness, worksAt } from '../../plugins/auth.ts';
import { rooms, type StaffSocket } from '../../plugins/realtime.ts';
import { requireFeature } from '../admin/service.ts';
import { phoneOrRefuse } from '../customers/service.ts';
import { findLocation } from '../locations/service.ts';
import { readSingleFile } from '../uploads/multipart.ts';
import { attachRecording, recordingName } from './recording.ts';
import { moveCall, placeOutgoingCall, takeCall, takeIncomingCall } from './service.ts';
import { findTrackingNumber } from './tracking-numbers.ts';
import { registerTransferCarrier } from './transfer.ts';

type CallRow = typeof calls.$inferSelect;

const PROVIDER = 'sandbox';
/** How long the customer's (simulator's) phone rings for an outgoing call before it counts as not answered. */
const DIAL_SECONDS = 30;

/**
 * Ringing sandbox calls on this server: who was rung (staff browsers, or the customer's simulator for a call
 * placed from a browser), who declined, and the timer that gives up on them.
 */
type Ringing = {
  rings: 'staff' | 'customer';
  rung: Set<string>;
  declined: Set<string>;
  timer: ReturnType<typeof setTimeout>;
};
/** The sockets at each end of a sandbox call. */
type Ends = { customer?: string; staff?: string };

const newSid = () => `SB${randomBytes(16).toString('hex')}`;
const failure = (error: unknown): PhoneAck => ({
  ok: false,
  message:
    error instanceof AppError
      ? error.message
      : 'The call could not be connected because of a problem on our side. Please try again.',
});

/**
 * Sandbox calls: a real calling provider for trying the product without Twilio. The sandbox page plays the
 * customer's phone and the network: it rings a location, or is rung by a staff browser, and the two talk over
 * WebRTC, with this server passing their negotiation between them over the app's socket. The calls go through
 * the same records, conversation lines, ringing and jobs as a Twilio call; the sandbox page records the call
 * and sends the recording here, as Twilio's recording callback would.
 *
 * Ringing timers live in this process: sandbox mode is for one server trying the product.
 */
export const sandboxPhone: FastifyPluginAsyncZod = async (app) => {
  if (!app.config.sandbox) return;
  const ringing = new Map<string, Ringing>();
  const ends = new Map<string, Ends>();
  const setEnd = (sid: string, end: keyof Ends, socketId: string) =>
    ends.set(sid, { ...ends.get(sid), [end]: socketId });

  const callOf = async (businessId: string, sid: string): Promise<CallRow | null> => {
    if (typeof sid !== 'string' || !/^SB[0-9a-f]{32}$/.test(sid)) return null;
    const [call] = await app.db
      .select()
      .from(calls)
      .where(
        and(
          eq(calls.provider, PROVIDER),
          eq(calls.provider_call_sid, sid),
          eq(calls.business_id, businessId),
        ),
      );
    return call ?? null;
  };

  const stopRinging = (sid: string) => {
    const r = ringing.get(sid);
    if (r) clearTimeout(r.timer);
    ringing.delete(sid);
  };

  /** Nobody took an incoming call: the staff stop ringing and the caller is offered voicemail. */
  const unanswered = async (businessId: string, sid: string, reason: 'timeout' | 'declined') => {
    const rang = ringing.get(sid);
    stopRinging(sid);
    const call = await callOf(businessId, sid);
    if (!rang || !call || call.ended_at) return;
    // Answered meanwhile: by a teammate (staff ringing) or by the customer (a call placed from a browser).
    if (rang.rings === 'staff' ? call.user_id : call.status === 'in-progress') return;
    app.io.to(rooms.location(call.location_id)).emit('phone.stop', { call_sid: sid, reason });
    if (call.direction === 'in') {
      await moveCall(app, call, 'no-answer', 0);
      const greeting = `Thanks for calling. Nobody can take your call right now. Please leave a message after the tone and we will call you back.`;
      app.io.to(rooms.call(sid)).emit('sandbox.voicemail', { call_sid: sid, greeting });
    } else {
      await moveCall(app, call, reason === 'declined' ? 'busy' : 'no-answer', 0);
      app.io.to(rooms.call(sid)).emit('phone.ended', { call_sid: sid, status: 'no-answer' });
    }
  };

  /** Either end hangs up: an answered call is completed with its length, one still ringing is cancelled. */
  const hangUp = async (businessId: string, sid: string) => {
    stopRinging(sid);
    const call = await callOf(businessId, sid);
    if (!call) return;
    app.io.to(rooms.location(call.location_id)).emit('phone.stop', { call_sid: sid, reason: 'cancelled' });
    if (!call.ended_at) {
      const seconds = call.answered_at ? Math.round((Date.now() - call.answered_at.getTime()) / 1000) : 0;
      await moveCall(app, call, call.answered_at ? 'completed' : 'canceled', seconds);
    }
    const [after] = await app.db.select({ status: calls.status }).from(calls).where(eq(calls.id, call.id));
    app.io.to(rooms.call(sid)).emit('phone.ended', { call_sid: sid, status: after?.status ?? 'completed' });
    app.io.in(rooms.call(sid)).socketsLeave(rooms.call(sid));
    ends.delete(sid);
  };

  const join = async (socket: StaffSocket, sid: string) => {
    await socket.join(rooms.call(sid));
    socket.data.calls = [...(socket.data.calls ?? []).filter((s) => s !== sid), sid];
  };

  /** Rings the browsers of the location's available staff (or one of them) whose sandbox phone is registered. */
  const ring = async (businessId: string, ringEvent: PhoneRing, onlyUser?: string): Promise<number> => {
    const available = await app.db
      .select({ user_id: callPresence.user_id })
      .from(callPresence)
      .where(
        and(
          eq(callPresence.location_id, ringEvent.location_id),
          gt(callPresence.available_until, new Date()),
        ),
      );
    const people = new Set(available.map((a) => a.user_id).filter((u) => !onlyUser || u === onlyUser));
    const phones = (await app.io.in(rooms.phone(ringEvent.location_id)).fetchSockets()).filter(
      (s) => s.data.actor.business_id === businessId && people.has(s.data.actor.user_id),
    );
    for (const phone of phones) phone.emit('phone.ring', ringEvent);
    const rung = new Set(phones.map((p) => p.id));
    if (rung.size > 0) {
      const timer = setTimeout(
        () => void unanswered(businessId, ringEvent.call_sid, 'timeout').catch(logFailure),
        RING_SECONDS * 1000,
      );
      ringing.set(ringEvent.call_sid, { rings: 'staff', rung, declined: new Set(), timer });
    }
    return rung.size;
  };

  // A transfer: the teammate's browser rings for the call; the browser that had it leaves it, and the
  // customer's end waits to be connected again (it makes a new offer when the teammate answers).
  registerTransferCarrier(app, async (call, to) => {
    const sid = call.provider_call_sid;
    const customerNumber = call.direction === 'in' ? call.from_number : call.to_number;
    const rung = await ring(
      call.business_id,
      {
        call_sid: sid,
        call_id: call.id,
        location_id: call.location_id,
        enquiry_id: call.enquiry_id,
        from: customerNumber,
        to: call.direction === 'in' ? call.to_number : call.from_number,
        caller_name: to.caller_name,
      },
      to.user_id,
    );
    if (rung === 0) throw new AppError('unprocessable', 'Their phone is not connected right now.');
    const end = ends.get(sid);
    if (end?.staff) {
      app.io.to(end.staff).emit('phone.ended', { call_sid: sid, status: 'transferred' });
      app.io.in(end.staff).socketsLeave(rooms.call(sid));
      ends.set(sid, { customer: end.customer });
    }
    if (end?.customer) app.io.to(end.customer).emit('phone.transfer', { call_sid: sid });
  });

  const logFailure = (err: unknown) => app.log.error({ err }, 'a sandbox call step failed');

  app.io.on('connection', (socket: StaffSocket) => {
    const { actor } = socket.data;
    const businessId = actor.business_id!;
    const staff = requireBusiness(actor);
    // Sandbox calls are calls: with calling turned off for the business, each step is refused as the calling
    // routes are. Hanging up, declining and the call's own signalling stay open, so a call already under way
    // when the feature was turned off can still end.
    const calling = () => requireFeature({ db: app.db, cache: app.businessCache, actor }, 'calls');
    const handle =
      <I>(work: (input: I) => Promise<PhoneAck>) =>
      (input: I, ack?: (result: PhoneAck) => void) => {
        const reply = typeof ack === 'function' ? ack : () => {};
        calling()
          .then(() => work(input))
          .then(reply, (error: unknown) => {
            if (!(error instanceof AppError)) logFailure(error);
            reply(failure(error));
          });
      };

    socket.on(
      'phone.register',
      handle(async (input: { location_id: string; on: boolean }) => {
        const location = await findLocation(app.db, staff, String(input?.location_id ?? ''));
        if (input.on) await socket.join(rooms.phone(location.id));
        else await socket.leave(rooms.phone(location.id));
        return { ok: true };
      }),
    );

    socket.on('sandbox.listen', (ack) =>
      handle(async () => {
        await socket.join(rooms.simulator(businessId));
        return { ok: true };
      })(undefined, ack),
    );

    // The simulator rings a location as the customer.
    socket.on(
      'sandbox.call',
      handle(async (input: { location_id: string; from: string; to?: string }) => {
        const location = await findLocation(app.db, staff, String(input?.location_id ?? ''));
        const from = phoneOrRefuse(clipText(String(input?.from ?? ''), 40));
        const sid = newSid();
        let to = location.phone_number ?? 'the sandbox line';
        if (input?.to && input.to !== to) {
          const tracked = await findTrackingNumber(app.db, phoneOrRefuse(clipText(String(input.to), 40)), [
            businessId,
          ]);
          if (tracked?.location_id !== location.id)
            throw new AppError(
              'unprocessable',
              `${input.to} is not a number of ${location.name ?? 'this location'}.`,
            );
          to = tracked.number;
        }
        await join(socket, sid);
        setEnd(sid, 'customer', socket.id);
        const plan = await takeIncomingCall(app, {
          receive: (message) => app.inbound.receive(message),
          location_id: location.id,
          provider: PROVIDER,
          sid,
          from,
          to,
        });
        // The ringing parameters carry the number when the caller has no name yet.
        const named = plan.clients[0]?.parameters.callerName;
        const rung = plan.open
          ? await ring(businessId, {
              call_sid: sid,
              call_id: plan.call_id,
              location_id: location.id,
              enquiry_id: plan.enquiry_id,
              from,
              to,
              caller_name: named && named !== from ? named : null,
            })
          : 0;
        if (rung === 0) {
          const call = await callOf(businessId, sid);
          if (call) await moveCall(app, call, 'no-answer', 0);
          socket.emit('sandbox.voicemail', { call_sid: sid, greeting: plan.greeting });
        }
        return { ok: true, call_sid: sid };
      }),
    );

    // A staff browser calls a customer: the simulator's phone rings.
    socket.on(
      'phone.dial',
      handle(async (input: { location_id: string; to: string; enquiry_id?: string }) => {
        const location = await findLocation(app.db, staff, String(input?.location_id ?? ''));
        const listening = await app.io.in(rooms.simulator(businessId)).fetchSockets();
        if (listening.length === 0)
          throw new AppError(
            'unprocessable',
            'Nobody is playing the customer: open Sandbox in another tab or window to answer sandbox calls.',
          );
        const sid = newSid();
        const placed = await placeOutgoingCall(app, {
          business_id: businessId,
          location_id: location.id,
          provider: PROVIDER,
          caller_id: location.phone_number ?? 'the sandbox line',
          sid,
          user_id: actor.user_id,
          to: clipText(String(input?.to ?? ''), 40),
          enquiry_id: typeof input?.enquiry_id === 'string' ? input.enquiry_id : undefined,
        });
        if ('refuse' in placed) throw new AppError('unprocessable', placed.refuse);
        const call = (await callOf(businessId, sid))!;
        await join(socket, sid);
        setEnd(sid, 'staff', socket.id);
        await moveCall(app, call, 'ringing', undefined);
        const ringEvent: PhoneRing = {
          call_sid: sid,
          call_id: call.id,
          location_id: location.id,
          enquiry_id: call.enquiry_id,
          from: placed.caller_id,
          to: placed.number,
          caller_name: location.name,
        };
        app.io.to(rooms.simulator(businessId)).emit('sandbox.ring', ringEvent);
        const timer = setTimeout(
          () => void unanswered(businessId, sid, 'timeout').catch(logFailure),
          DIAL_SECONDS * 1000,
        );
        ringing.set(sid, {
          rings: 'customer',
          rung: new Set(listening.map((l) => l.id)),
          declined: new Set(),
          timer,
        });
        return { ok: true, call_sid: sid };
      }),
    );

    socket.on(
      'phone.answer',
      handle(async (input: { call_sid: string }) => {
        const sid = String(input?.call_sid ?? '');
        const call = await callOf(businessId, sid);
        const rang = ringing.get(sid);
        if (!call || call.ended_at || !rang?.rung.has(socket.id))
          return { ok: false, message: 'This call has ended.' };
        if (rang.rings === 'staff') {
          const taken = await takeCall(app, call, actor.user_id);
          if (!taken) return { ok: false, message: 'Someone else answered this call.' };
          setEnd(sid, 'staff', socket.id);
        } else {
          await moveCall(app, call, 'in-progress', undefined);
          setEnd(sid, 'customer', socket.id);
        }
        stopRinging(sid);
        await join(socket, sid);
        if (rang.rings === 'staff')
          socket
            .to(rooms.location(call.location_id))
            .emit('phone.stop', { call_sid: sid, reason: 'answered' });
        app.io.to(rooms.call(sid)).emit('phone.connected', {
          call_sid: sid,
          answered_by: rang.rings === 'staff' ? actor.user_id : null,
        });
        return { ok: true, call_sid: sid };
      }),
    );

    socket.on('phone.decline', (input) => {
      const sid = String(input?.call_sid ?? '');
      const r = ringing.get(sid);
      if (!r?.rung.has(socket.id)) return;
      r.declined.add(socket.id);
      if (r.declined.size >= r.rung.size) void unanswered(businessId, sid, 'declined').catch(logFailure);
    });

    socket.on('phone.hangup', (input) => {
      const sid = String(input?.call_sid ?? '');
      if (!socket.rooms.has(rooms.call(sid))) return;
      void hangUp(businessId, sid).catch(logFailure);
    });

    socket.on('phone.signal', (input) => {
      const sid = String(input?.call_sid ?? '');
      if (!socket.rooms.has(rooms.call(sid)) || !isSignal(input?.signal)) return;
      socket.to(rooms.call(sid)).emit('phone.signal', { call_sid: sid, signal: input.signal });
    });

    // A browser that goes (closed, offline, signed out) hangs up the calls it was on.
    socket.on('disconnect', () => {
      for (const sid of socket.data.calls ?? []) {
        const end = ends.get(sid);
        if (end?.customer === socket.id || end?.staff === socket.id)
          void hangUp(businessId, sid).catch(logFailure);
      }
    });
  });

  // The sandbox page sends the call's recording (or the voicemail left) when the call ends, as Twilio's
  // recording callback would.
  app.post(
    '/sandbox/calls/:id/recording',
    {
      onRequest: app.authenticate,
      schema: {
        params: z.strictObject({ id: z.string().max(64) }),
        querystring: z.strictObject({ voicemail: z.enum(['true', 'false']).optional() }),
        response: { 200: answer(z.object({ call_id: z.string(), upload_id: z.string() })) },
      },
    },
    async (request) => {
      const a = requireBusiness(request.actor);
      await requireFeature(request.ctx, 'calls');
      const call = await callOf(a.business_id, request.params.id);
      if (!call || !worksAt(a, call.location_id)) throw new AppError('not_found', 'Call not found.');
      const file = await readSingleFile(request, {
        field: 'file',
        maxBytes: app.config.uploadMaxBytes,
        tooLarge: (max) =>
          new AppError(
            'payload_too_large',
            `The recording is larger than ${Math.floor(max / 1_048_576)} MB.`,
          ),
      });
      const type = file.declaredType.split(';')[0]!.trim();
      if (!/^audio\/(wav|x-wav|wave|webm|ogg|mpeg)$/.test(type))
        throw new AppError('unsupported_media_type', 'Send the recording as WAV, WebM, Ogg or MP3 audio.');
      const voicemail = request.query.voicemail === 'true';
      const seconds = wavSeconds(file.bytes);
      const [marked] = await app.db
        .update(calls)
        .set({
          recording_sid: `RE${call.provider_call_sid.slice(2)}`,
          recording_channels: wavChannels(file.bytes),
          ...(voicemail ? { voicemail: true, duration: seconds ?? call.duration } : {}),
        })
        .where(and(eq(calls.id, call.id), sql`${calls.recording_upload_id} is null`))
        .returning();
      if (!marked) throw new AppError('conflict', 'This call already has its recording.');
      const extension = type.includes('wav') || type.includes('wave') ? 'wav' : type.split('/')[1]!;
      const upload = await saveUpload(app.db, app.config, {
        business_id: call.business_id,
        user_id: a.user_id,
        name: recordingName(marked, extension),
        content_type: type,
        bytes: file.bytes,
      });
      await attachRecording(app, marked, upload);
      return { body: { call_id: call.id, upload_id: upload.id } };
    },
  );
};

const SignalShape = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('sdp'),
    sdp: z.object({ type: z.enum(['offer', 'answer']), sdp: z.string().max(20_000) }),
  }),
  z.object({
    kind: z.literal('candidate'),
    candidate: z.object({
      candidate: z.string().max(2_000),
      sdpMid: z.string().max(64).nullable(),
      sdpMLineIndex: z.number().int().min(0).max(64).nullable(),
    }),
  }),
  z.object({ kind: z.literal('dtmf'), digits: z.string().regex(/^[0-9*#]{1,32}$/) }),
  z.object({ kind: z.literal('hold'), on: z.boolean() }),
]);
const isSignal = (value: unknown): value is PhoneSignal => SignalShape.safeParse(value).success;
