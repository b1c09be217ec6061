import { customers, enquiries, messages, users } from '@switchboard/db';
import type { ReplyRoute, VisitorMessage } from '@switchboard/shared';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { PermanentSendError } from '../../lib/provider-errors.ts';
import { rooms } from '../../plugins/realtime.ts';
import type { ChannelAdapter, OutboundMessage } from '../types.ts';

export const WIDGET_CHANNEL = 'widget';

/** A teammate as a website visitor sees them: their first name only. */
export const firstName = (fullName: string | null | undefined) => fullName?.trim().split(/\s+/)[0] || null;

/** Where a reply to a website chat goes now, and (for `sms`) the adapter that sends it. */
type Decision =
  | { route: 'chat' }
  | { route: 'sms'; adapter: ChannelAdapter; phone: string }
  | { route: 'waiting'; detail: string };

type Namespace = {
  in(room: string): { fetchSockets(): Promise<unknown[]> };
  to(room: string): {
    emit(event: 'message', message: VisitorMessage): void;
    emit(event: 'typing', e: object): void;
  };
};

/**
 * A website chat continues by text message. While the visitor has the chat open (on any node), a staff reply
 * shows there live. Once they have had no chat open for `widgetSmsAfterMinutes`, it goes by SMS to the phone
 * they gave, through the location's SMS channel, and the enquiry is marked so their SMS replies continue it.
 * Without a phone, an SMS channel, or with SMS opted out, the reply waits in the chat for their return.
 */
export function createWidgetReplies(
  app: FastifyInstance,
  nsp: Namespace,
  visitorRoom: (id: string) => string,
) {
  const awayMs = app.config.widgetSmsAfterMinutes * 60_000;

  async function visitorHere(visitorId: string): Promise<boolean> {
    try {
      return (await nsp.in(visitorRoom(visitorId)).fetchSockets()).length > 0;
    } catch {
      // Another node did not answer in time: assume the chat is open rather than text someone who is there.
      return true;
    }
  }

  /** When the visitor last had the chat open: their last disconnect, else their last message. */
  async function lastSeen(enquiryId: string): Promise<Date | null> {
    const [e] = await app.db
      .select({ meta: enquiries.meta })
      .from(enquiries)
      .where(eq(enquiries.id, enquiryId));
    const seen = e?.meta.visitor_seen_at;
    if (typeof seen === 'string') return new Date(seen);
    const [m] = await app.db
      .select({ at: messages.created_at })
      .from(messages)
      .where(and(eq(messages.enquiry_id, enquiryId), eq(messages.direction, 'in')))
      .orderBy(desc(messages.created_at))
      .limit(1);
    return m?.at ?? null;
  }

  async function decide(target: {
    enquiry_id: string;
    location_id: string;
    visitor_id: string | null;
    phone: string | null;
    sms_opted_out: boolean;
  }): Promise<Decision> {
    if (target.visitor_id && (await visitorHere(target.visitor_id))) return { route: 'chat' };
    const seen = await lastSeen(target.enquiry_id);
    if (seen && Date.now() - seen.getTime() < awayMs) return { route: 'chat' };
    if (!target.phone)
      return {
        route: 'waiting',
        detail:
          'The visitor has left the chat and gave no phone number: your reply waits in the chat until they return.',
      };
    if (target.sms_opted_out)
      return {
        route: 'waiting',
        detail:
          'The visitor has left the chat and opted out of texts: your reply waits in the chat until they return.',
      };
    try {
      const adapter = await app.channels.forChannel('sms', target.location_id);
      return { route: 'sms', adapter, phone: target.phone };
    } catch (error) {
      if (!(error instanceof PermanentSendError)) throw error;
      return {
        route: 'waiting',
        detail:
          'The visitor has left the chat and this location has no SMS channel: your reply waits in the chat until they return.',
      };
    }
  }

  /** The visitor closed the chat (their last tab): remembered on their enquiries, for the away time. */
  async function visitorLeft(enquiryIds: string[]): Promise<void> {
    if (!enquiryIds.length) return;
    await app.db
      .update(enquiries)
      .set({ meta: sql`${enquiries.meta} || jsonb_build_object('visitor_seen_at', now())` })
      .where(sql`${enquiries.id} = any(${sql.param(enquiryIds)}::uuid[])`);
  }

  const adapter: ChannelAdapter = {
    provider: WIDGET_CHANNEL,
    // The chat reads its history from the database and knows messages by id: showing one again is harmless.
    reconcile: async () => null,
    async send(message: OutboundMessage) {
      const visitorId = message.to.external_id;
      const [c] = message.customer_id
        ? await app.db
            .select({ sms_opted_out: customers.sms_opted_out })
            .from(customers)
            .where(eq(customers.id, message.customer_id))
        : [];
      const decision = message.enquiry_id
        ? await decide({
            enquiry_id: message.enquiry_id,
            location_id: message.location_id,
            visitor_id: visitorId,
            phone: message.to.phone,
            sms_opted_out: c?.sms_opted_out ?? false,
          })
        : ({ route: 'chat' } as const);
      if (decision.route === 'sms') {
        // Marked first: an SMS reply that arrives the moment this one is delivered joins the chat's enquiry.
        await app.db
          .update(enquiries)
          .set({ meta: sql`${enquiries.meta} || jsonb_build_object('sms_fallback_at', now())` })
          .where(eq(enquiries.id, message.enquiry_id!));
        const result = await decision.adapter.send({ ...message, channel: 'sms' });
        return { ...result, meta: { delivered_via: 'sms', sms_to: decision.phone } };
      }
      if (!visitorId) throw new PermanentSendError('The customer has no website chat visitor id.');
      const [sender] = await app.db
        .select({ full_name: users.full_name, avatar: users.avatar })
        .from(messages)
        .innerJoin(users, eq(users.id, messages.team_user_id))
        .where(eq(messages.id, message.id));
      nsp.to(visitorRoom(visitorId)).emit('message', {
        id: message.id,
        from: 'staff',
        text: message.message,
        created_at: new Date().toISOString(),
        client_id: null,
        agent: firstName(sender?.full_name),
        agent_avatar: sender?.avatar ?? null,
      });
      if (message.enquiry_id)
        nsp.to(rooms.enquiry(message.enquiry_id)).emit('typing', { typing: false, full_name: '' });
      return {
        provider: WIDGET_CHANNEL,
        provider_message_id: `widget-${message.id}`,
        // Seen in the open chat at once; otherwise it waits there for the visitor's return.
        status: decision.route === 'chat' ? 'delivered' : 'sent',
        meta: { delivered_via: 'chat' },
      };
    },
  };

  /** `GET /enquiries/{id}/reply-route`, for the composer. */
  async function routeOf(enquiry: {
    id: string;
    channel: string;
    location_id: string;
    customer_id: string;
  }): Promise<ReplyRoute> {
    if (enquiry.channel !== WIDGET_CHANNEL) return { route: 'channel', detail: null };
    const [c] = await app.db.select().from(customers).where(eq(customers.id, enquiry.customer_id));
    const decision = await decide({
      enquiry_id: enquiry.id,
      location_id: enquiry.location_id,
      visitor_id: c?.external_ids[WIDGET_CHANNEL] ?? null,
      phone: c?.phone ?? null,
      sms_opted_out: c?.sms_opted_out ?? false,
    });
    if (decision.route === 'chat')
      return { route: 'chat', detail: 'The visitor has the chat open: your reply shows there at once.' };
    if (decision.route === 'sms')
      return {
        route: 'sms',
        detail: `The visitor has left the chat: your reply goes by SMS to ${decision.phone}.`,
      };
    return { route: 'waiting', detail: decision.detail };
  }

  return { adapter, visitorLeft, routeOf };
}
