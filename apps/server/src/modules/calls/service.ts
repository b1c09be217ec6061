import {
  businesses,
  callPresence,
  calls,
  customers,
  type DbOrTx,
  enquiries,
  locations,
  messages,
  users,
} from '@switchboard/db';
import {
  type CallEvent,
  type CallMeta,
  callText,
  hoursOf,
  isUuid,
  normalisePhone,
  openingState,
} from '@switchboard/shared';
import { and, desc, eq, gt, inArray, or, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { uuidv7 } from 'uuidv7';
import {
  advanceCallStatus,
  type CallStatusValue,
  isFinished,
  voiceIdentity,
} from '../../channels/twilio/voice.ts';
import type { InboundOutcome, RingPlan } from '../../channels/types.ts';
import { findOrCreateCustomer } from '../customers/service.ts';
import { publishCounts } from '../enquiries/counters.ts';
import { toEnquiryRow } from '../enquiries/dto.ts';
import { preview, toMessageDto } from '../messages/dto.ts';
import { findOrOpenEnquiry } from '../messages/service.ts';
import { continuesThreadOf } from '../messages/threads.ts';
import { CALL_CHANNEL } from './replies.ts';
import { deskPhonesAt } from './sip.ts';
import { textBackEntry } from './text-back.ts';
import { findTrackingNumber } from './tracking-numbers.ts';

type CallRow = typeof calls.$inferSelect;

/** The call's line in the conversation and its `meta.call`, from the call row and who took it. */
function describe(
  call: CallRow,
  user: { id: string; full_name: string } | null,
): { text: string; meta: CallMeta } {
  const meta: CallMeta = {
    id: call.id,
    direction: call.direction,
    from: call.from_number,
    to: call.to_number,
    status: call.status,
    duration: call.duration,
    voicemail: call.voicemail,
    user,
  };
  return { text: callText(meta), meta };
}

async function whoTook(app: FastifyInstance, userId: string | null) {
  if (!userId) return null;
  const [u] = await app.db
    .select({ id: users.id, full_name: users.full_name })
    .from(users)
    .where(eq(users.id, userId));
  return u ?? null;
}

/**
 * The call's message follows the call: its line ('Missed call', 'Voicemail (0:42)'…) and `meta.call`, the
 * conversation's preview when it is the latest message, and every open screen, live.
 */
/** A call as staff screens hear of it live. */
function callEvent(call: CallRow, meta: CallMeta, callerName: string | null): CallEvent {
  return {
    id: call.id,
    enquiry_id: call.enquiry_id,
    location_id: call.location_id,
    direction: call.direction,
    from: call.from_number,
    to: call.to_number,
    status: call.status,
    voicemail: call.voicemail,
    caller_name: callerName,
    user: meta.user,
  };
}

export async function showCall(app: FastifyInstance, call: CallRow): Promise<void> {
  const { text, meta } = describe(call, await whoTook(app, call.user_id));
  const [m] = await app.db
    .update(messages)
    .set({
      message: text,
      meta: sql`${messages.meta} || ${JSON.stringify({ call: meta })}::jsonb`,
      team_user_id: call.user_id,
    })
    .where(eq(messages.id, call.message_id))
    .returning();
  if (!m) return;
  const [enquiry] = await app.db
    .update(enquiries)
    .set({ last_message_preview: preview(text, 0) })
    .where(
      and(
        eq(enquiries.id, call.enquiry_id),
        sql`not exists (select 1 from messages later where later.enquiry_id = ${call.enquiry_id}
              and later.created_at > ${m.created_at})`,
      ),
    )
    .returning();
  const author = meta.user ? { full_name: meta.user.full_name, avatar: null } : null;
  app.events.emit('message.updated', {
    business_id: call.business_id,
    location_id: call.location_id,
    message: toMessageDto(m, author),
  });
  const [customer] = await app.db.select().from(customers).where(eq(customers.id, call.customer_id));
  app.events.emit('call.updated', {
    business_id: call.business_id,
    call: callEvent(call, meta, customer?.name ?? null),
  });
  // The list row shows the call's line when it is the conversation's latest.
  if (enquiry && customer)
    app.events.emit('enquiry.updated', {
      business_id: call.business_id,
      enquiry: toEnquiryRow(enquiry, customer),
    });
}

function greetingFor(place: string, open: boolean): string {
  const name = place ? `Thanks for calling ${place}.` : 'Thanks for calling.';
  return open
    ? `${name} Nobody can take your call right now. Please leave a message after the tone and we will call you back.`
    : `${name} We are closed right now. Please leave a message after the tone and we will call you back.`;
}

/**
 * A customer rings the location: the call goes into their phone number's conversation at once (the one
 * their texts and calls share at the location, else a reopened or new one), so whoever answers sees who it is; every
 * browser of the location's available staff rings, unless the location is closed by its hours. A repeated
 * webhook for the same call finds the call it already stored.
 */
export async function takeIncomingCall(
  app: FastifyInstance,
  input: {
    receive: (message: Parameters<FastifyInstance['inbound']['receive']>[0]) => Promise<InboundOutcome>;
    location_id: string;
    provider: string;
    sid: string;
    from: string;
    to: string;
  },
): Promise<RingPlan> {
  const [place] = await app.db
    .select({
      business_id: locations.business_id,
      name: locations.name,
      business_name: businesses.name,
      opening_hours: locations.opening_hours,
      reply_time: locations.reply_time,
      holidays: locations.holidays,
      timezone: sql<string>`coalesce(${locations.timezone}, ${businesses.timezone})`,
    })
    .from(locations)
    .innerJoin(businesses, eq(businesses.id, locations.business_id))
    .where(eq(locations.id, input.location_id));
  if (!place) throw new Error(`No location ${input.location_id} for a call`);
  const { opening_hours, holidays } = hoursOf(place);
  const open = openingState(opening_hours, place.timezone, new Date(), holidays).open;

  const ringing: CallMeta = {
    id: '',
    direction: 'in',
    from: input.from,
    to: input.to,
    status: 'ringing',
    duration: null,
    voicemail: false,
    user: null,
  };
  // A call to a campaign's tracking number is attributed to the campaign (a conversation it opens says so).
  const tracked = await findTrackingNumber(app.db, input.to, [place.business_id]);
  const stored = await input.receive({
    provider: input.provider,
    provider_message_id: input.sid,
    channel: 'phone_call',
    location_id: input.location_id,
    from: { phone: input.from },
    message: callText(ringing),
    meta: { from: input.from, to: input.to, call: ringing },
    ...(tracked
      ? {
          source: tracked.source,
          medium: tracked.medium ?? undefined,
          campaign: tracked.campaign ?? undefined,
        }
      : {}),
  });
  const [inserted] = await app.db
    .insert(calls)
    .values({
      business_id: place.business_id,
      location_id: input.location_id,
      enquiry_id: stored.enquiry.id,
      message_id: stored.message.id,
      customer_id: stored.message.customer_id,
      direction: 'in',
      from_number: input.from,
      to_number: input.to,
      status: 'ringing',
      provider: input.provider,
      provider_call_sid: input.sid,
    })
    .onConflictDoNothing()
    .returning();
  const call =
    inserted ??
    (
      await app.db
        .select()
        .from(calls)
        .where(and(eq(calls.provider, input.provider), eq(calls.provider_call_sid, input.sid)))
    )[0]!;
  if (inserted) {
    await showCall(app, call);
    app.events.emit('call.incoming', {
      business_id: call.business_id,
      call: callEvent(call, describe(call, null).meta, stored.enquiry.customer.name),
    });
  }

  const available = open
    ? await app.db
        .select({ user_id: callPresence.user_id })
        .from(callPresence)
        .where(
          and(eq(callPresence.location_id, input.location_id), gt(callPresence.available_until, new Date())),
        )
    : [];
  const caller = stored.enquiry.customer.name ?? input.from;
  const sip = open ? await deskPhonesAt(app.db, input.location_id) : [];
  return {
    sip,
    call_id: call.id,
    enquiry_id: call.enquiry_id,
    open,
    clients: available.map((a) => ({
      identity: voiceIdentity(a.user_id, input.location_id),
      parameters: { enquiryId: call.enquiry_id, callerName: caller, callId: call.id },
    })),
    greeting: greetingFor(place.name ?? place.business_name ?? '', open),
  };
}

/** The call a provider's callback is about: by its own id, or its parent's (a browser's leg of a `<Dial>`). */
async function findCall(app: FastifyInstance, businessIds: string[], provider: string, sids: string[]) {
  const [call] = await app.db
    .select()
    .from(calls)
    .where(
      and(
        eq(calls.provider, provider),
        inArray(calls.provider_call_sid, sids),
        inArray(calls.business_id, businessIds),
      ),
    );
  return call ?? null;
}

/**
 * A status callback. The call's own leg moves the call (forward only: callbacks arrive in any order); a
 * browser's leg answering says who took the call.
 */
export async function applyCallStatus(
  app: FastifyInstance,
  input: {
    business_ids: string[];
    provider: string;
    sid: string;
    parent_sid?: string;
    status: CallStatusValue;
    /** Seconds, on a finished leg. */
    duration?: number;
    /** The user whose browser this leg rang, when it is one. */
    answered_by?: string | null;
  },
): Promise<boolean> {
  const own = await findCall(app, input.business_ids, input.provider, [input.sid]);
  if (own) return moveCall(app, own, input.status, input.duration);
  if (!input.parent_sid) return false;
  const parent = await findCall(app, input.business_ids, input.provider, [input.parent_sid]);
  if (!parent) return false;
  // An outgoing call's outcome is its customer leg's (answered, busy, no answer, how long).
  if (parent.direction === 'out') return moveCall(app, parent, input.status, input.duration);
  if (input.status !== 'in-progress' || !input.answered_by || parent.user_id) return false;
  return Boolean(await takeCall(app, parent, input.answered_by));
}

/** The first person to answer an incoming call takes it; anyone after them is too late (null). */
export async function takeCall(app: FastifyInstance, call: CallRow, userId: string): Promise<CallRow | null> {
  const [updated] = await app.db
    .update(calls)
    .set({
      user_id: userId,
      status: advanceCallStatus(call.status as CallStatusValue, 'in-progress'),
      answered_at: call.answered_at ?? new Date(),
    })
    .where(and(eq(calls.id, call.id), sql`${calls.user_id} is null`, sql`${calls.ended_at} is null`))
    .returning();
  if (updated) await showCall(app, updated);
  return updated ?? null;
}

/** Moves a call forward (never back), and shows it. */
export async function moveCall(
  app: FastifyInstance,
  call: CallRow,
  next: CallStatusValue,
  duration: number | undefined,
): Promise<boolean> {
  const status = advanceCallStatus(call.status as CallStatusValue, next);
  const lengthKnown = isFinished(status) && call.duration === null && duration !== undefined;
  if (status === call.status && !lengthKnown) return false;
  const { updated, followups } = await app.db.transaction(async (tx) => {
    const [row] = await tx
      .update(calls)
      .set({
        status,
        ...(status === 'in-progress' && !call.answered_at ? { answered_at: new Date() } : {}),
        ...(isFinished(status)
          ? { ended_at: call.ended_at ?? new Date(), duration: duration ?? call.duration }
          : {}),
      })
      .where(eq(calls.id, call.id))
      .returning();
    return { updated: row!, followups: await textBackIfMissed(app, tx, row!) };
  });
  await showCall(app, updated);
  await app.jobs.release(followups);
  return true;
}

/** A missed call's text-back, written to the outbox in the transaction that records how the call ended. */
async function textBackIfMissed(app: FastifyInstance, tx: DbOrTx, call: CallRow) {
  const followups = missed(call) ? [textBackEntry(app, call.id)] : [];
  await app.jobs.stage(tx, followups);
  return followups;
}

/** An incoming call that ended with nobody taking it (a voicemail counts). */
const missed = (call: CallRow) =>
  call.direction === 'in' && !call.user_id && (call.voicemail || isFinished(call.status as CallStatusValue));

/** `<Dial>` ended: an answered call is done; otherwise the caller is offered voicemail. */
export async function dialEnded(
  app: FastifyInstance,
  input: { business_ids: string[]; provider: string; sid: string; dial_status: string },
): Promise<{ greeting: string } | null> {
  const call = await findCall(app, input.business_ids, input.provider, [input.sid]);
  if (call?.direction !== 'in') return null;
  if (input.dial_status === 'completed' && call.user_id) return null;
  const [place] = await app.db
    .select({ name: locations.name, business_name: businesses.name })
    .from(locations)
    .innerJoin(businesses, eq(businesses.id, locations.business_id))
    .where(eq(locations.id, call.location_id));
  return { greeting: greetingFor(place?.name ?? place?.business_name ?? '', true) };
}

/** A recording is ready: kept on the call (a `<Record>` one makes it a voicemail), fetched by a job. */
export async function recordingReady(
  app: FastifyInstance,
  input: {
    business_ids: string[];
    provider: string;
    sid: string;
    recording_sid: string;
    duration: number | null;
    channels: number | null;
    voicemail: boolean;
  },
): Promise<CallRow | null> {
  const call = await findCall(app, input.business_ids, input.provider, [input.sid]);
  if (!call) return null;
  const { updated, followups } = await app.db.transaction(async (tx) => {
    const [row] = await tx
      .update(calls)
      .set({
        recording_sid: input.recording_sid,
        recording_channels: input.channels,
        ...(input.voicemail ? { voicemail: true, duration: input.duration ?? call.duration } : {}),
      })
      .where(
        and(
          eq(calls.id, call.id),
          or(sql`${calls.recording_sid} is null`, eq(calls.recording_sid, input.recording_sid)),
        ),
      )
      .returning();
    return { updated: row, followups: row ? await textBackIfMissed(app, tx, row) : [] };
  });
  if (updated) await showCall(app, updated);
  await app.jobs.release(followups);
  return updated ?? null;
}

/**
 * A staff browser places a call: to a valid number only (read in the business's country), shown to the
 * customer as the location's number, stored as an outgoing call in the conversation it was started from
 * (when that is the same customer's at this location), else the one they have open at the location, else a
 * new one assigned to the caller.
 */
export async function placeOutgoingCall(
  app: FastifyInstance,
  input: {
    business_id: string;
    location_id: string;
    provider: string;
    caller_id: string | null;
    sid: string;
    user_id: string;
    to: string;
    enquiry_id?: string;
  },
): Promise<{ caller_id: string; number: string } | { refuse: string }> {
  if (!input.caller_id) return { refuse: 'This location has no phone number to call from yet.' };
  const number = normalisePhone(input.to);
  if (!number) return { refuse: 'That is not a phone number we can call.' };
  const [existing] = await app.db
    .select()
    .from(calls)
    .where(and(eq(calls.provider, input.provider), eq(calls.provider_call_sid, input.sid)));
  if (existing) return { caller_id: input.caller_id, number: existing.to_number };

  const user = await whoTook(app, input.user_id);
  const placed = await app.db.transaction(async (tx) => {
    const customer = await findOrCreateCustomer(tx, input.business_id, { phone: number });
    const chosen = await pickConversation(tx, { ...input, customer_id: customer.id });
    const { enquiry, created, counts } = chosen
      ? { enquiry: chosen, created: false, counts: null }
      : await findOrOpenEnquiry(tx, {
          business_id: input.business_id,
          location_id: input.location_id,
          customer_id: customer.id,
          channel: 'phone_call',
          assigned_to: input.user_id,
        });
    const callId = uuidv7();
    const meta: CallMeta = {
      id: callId,
      direction: 'out',
      from: input.caller_id!,
      to: number,
      status: 'initiated',
      duration: null,
      voicemail: false,
      user,
    };
    const [m] = await tx
      .insert(messages)
      .values({
        business_id: input.business_id,
        enquiry_id: enquiry.id,
        customer_id: customer.id,
        channel: 'phone_call',
        direction: 'out',
        team_user_id: input.user_id,
        message: callText(meta),
        meta: { from: input.caller_id!, to: number, call: meta },
        status: 'sent',
        provider: input.provider,
        provider_message_id: input.sid,
      })
      .returning();
    const [updated] = await tx
      .update(enquiries)
      .set({ last_message_at: m!.created_at, last_message_preview: preview(m!.message, 0), seen: true })
      .where(eq(enquiries.id, enquiry.id))
      .returning();
    await tx.insert(calls).values({
      id: callId,
      business_id: input.business_id,
      location_id: input.location_id,
      enquiry_id: enquiry.id,
      message_id: m!.id,
      customer_id: customer.id,
      user_id: input.user_id,
      direction: 'out',
      from_number: input.caller_id!,
      to_number: number,
      status: 'initiated',
      provider: input.provider,
      provider_call_sid: input.sid,
    });
    return { message: m!, enquiry: toEnquiryRow(updated!, customer), created, counts };
  });
  if (placed.created)
    app.events.emit('enquiry.created', { business_id: input.business_id, enquiry: placed.enquiry });
  if (placed.counts)
    await publishCounts({ db: app.db, events: app.events }, input.business_id, placed.counts);
  app.events.emit('message.created', {
    business_id: input.business_id,
    location_id: input.location_id,
    message: toMessageDto(placed.message, user ? { full_name: user.full_name, avatar: null } : null),
  });
  app.events.emit('enquiry.updated', { business_id: input.business_id, enquiry: placed.enquiry });
  return { caller_id: input.caller_id, number };
}

/**
 * The conversation an outgoing call belongs in, when one exists: the one it was started from, or the phone
 * number's open one (texts and calls are one conversation).
 */
async function pickConversation(
  tx: DbOrTx,
  input: { business_id: string; location_id: string; customer_id: string; enquiry_id?: string },
) {
  const mine = and(
    eq(enquiries.business_id, input.business_id),
    eq(enquiries.location_id, input.location_id),
    eq(enquiries.customer_id, input.customer_id),
  );
  if (input.enquiry_id && isUuid(input.enquiry_id)) {
    const [given] = await tx
      .select()
      .from(enquiries)
      .where(and(mine, eq(enquiries.id, input.enquiry_id)));
    if (given) return given;
  }
  const [open] = await tx
    .select()
    .from(enquiries)
    .where(and(mine, continuesThreadOf(CALL_CHANNEL), eq(enquiries.status, 'open')))
    .orderBy(desc(enquiries.last_message_at))
    .limit(1);
  return open ?? null;
}
