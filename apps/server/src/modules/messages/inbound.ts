import { customers, type DbOrTx, enquiries, locations, messages } from '@switchboard/db';
import type { LocationCounts } from '@switchboard/shared';
import { isUuid } from '@switchboard/shared';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { InboundMessage, InboundOutcome } from '../../channels/types.ts';
import { storableText } from '../../lib/text.ts';
import type { Jobs } from '../../plugins/jobs.ts';
import { queueMediaDownload } from '../channels/media.ts';
import { findOrCreateCustomer } from '../customers/service.ts';
import { moveCounters } from '../enquiries/counters.ts';
import { toEnquiryRow } from '../enquiries/dto.ts';
import { preview, toMessageDto } from './dto.ts';
import { findOrOpenEnquiry, type MessagesCtx } from './service.ts';

export type IngestResult = InboundOutcome & {
  created: boolean;
  counts: LocationCounts | null;
};

type PipelineCtx = Pick<MessagesCtx, 'db' | 'events'> & { jobs: Jobs };

/**
 * The inbound pipeline (DESIGN §6), the one door for every source: in one transaction, upsert the customer,
 * find the open enquiry for that customer, channel and location or open one, store the message (a repeated
 * provider id is recognised and stored once), record an SMS opt-out keyword, and move the counters. Then its
 * media is queued for download and events go out; the caller acknowledges the provider only once this has
 * returned, so nothing acknowledged is lost.
 */
export async function receiveInbound(ctx: PipelineCtx, received: InboundMessage): Promise<IngestResult> {
  // A customer's text is kept even when it carries characters the database refuses (a NUL, half an emoji).
  const inbound = storableText(received);
  const media = inbound.media ?? [];
  const queueMedia = (messageId: string) =>
    inbound.account_id && media.length
      ? queueMediaDownload(ctx.jobs, { message_id: messageId, account_id: inbound.account_id, media })
      : Promise.resolve();
  const result = await ctx.db.transaction(async (tx) => {
    // A provider's concurrent repeats of one message queue here, so the second sees the first stored.
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtextextended(${`${inbound.provider}:${inbound.provider_message_id}`}, 1))`,
    );
    const [location] = await tx
      .select({ id: locations.id, business_id: locations.business_id })
      .from(locations)
      .where(eq(locations.id, inbound.location_id));
    if (!location) throw new Error(`ingestInbound: unknown location ${inbound.location_id}`);

    const [existing] = await tx
      .select()
      .from(messages)
      .where(
        and(
          eq(messages.provider, inbound.provider),
          eq(messages.provider_message_id, inbound.provider_message_id),
        ),
      );
    if (existing) {
      const [e] = await tx.select().from(enquiries).where(eq(enquiries.id, existing.enquiry_id));
      const customer = { name: null, phone: null, email: null };
      return {
        duplicate: true,
        // Stored before, its media never queued (the server stopped before answering; the provider retried).
        media_waiting: 'media_pending' in existing.meta,
        message: toMessageDto(existing, null),
        enquiry: toEnquiryRow(e!, customer),
        created: false,
        counts: null,
      };
    }

    const customer = await findOrCreateCustomer(tx, location.business_id, {
      ...inbound.from,
      channel: inbound.channel,
    });
    if (inbound.sms_opt) {
      await tx
        .update(customers)
        .set({ sms_opted_out: inbound.sms_opt === 'out' })
        .where(eq(customers.id, customer.id));
    }
    const channel = await threadChannel(tx, inbound.channel, location.id, customer.id);
    const continued = inbound.enquiry_id
      ? await continueEnquiry(tx, {
          id: inbound.enquiry_id,
          business_id: location.business_id,
          location_id: location.id,
          customer_id: customer.id,
          channel,
        })
      : null;
    const { enquiry, created, counts } =
      continued ??
      (await findOrOpenEnquiry(tx, {
        business_id: location.business_id,
        location_id: location.id,
        customer_id: customer.id,
        channel,
        title: inbound.subject,
        source: inbound.source,
        medium: inbound.medium,
        campaign: inbound.campaign,
      }));
    const at = inbound.timestamp ?? new Date();
    const [m] = await tx
      .insert(messages)
      .values({
        business_id: location.business_id,
        enquiry_id: enquiry.id,
        customer_id: customer.id,
        channel,
        direction: 'in',
        message: inbound.message,
        meta: {
          ...(inbound.meta ?? {}),
          ...(inbound.subject ? { subject: inbound.subject } : {}),
          ...(media.length ? { media_pending: media.length } : {}),
        },
        attachments: inbound.attachments ?? [],
        status: 'received',
        provider: inbound.provider,
        provider_message_id: inbound.provider_message_id,
        created_at: at,
      })
      .returning();
    const [updated] = await tx
      .update(enquiries)
      .set({
        last_message_at: at,
        last_message_preview: preview(inbound.message, (inbound.attachments?.length ?? 0) + media.length),
        seen: false,
      })
      .where(eq(enquiries.id, enquiry.id))
      .returning();
    return {
      duplicate: false,
      message: toMessageDto(m!, null),
      enquiry: toEnquiryRow(updated!, customer),
      created,
      counts,
      business_id: location.business_id,
    };
  });

  if (result.duplicate) {
    if ('media_waiting' in result && result.media_waiting) await queueMedia(result.message.id);
  } else await queueMedia(result.message.id);
  if (!result.duplicate && 'business_id' in result && result.business_id) {
    const business_id = result.business_id;
    ctx.events.emit(result.created ? 'enquiry.created' : 'enquiry.updated', {
      business_id,
      enquiry: result.enquiry,
    });
    ctx.events.emit('message.created', {
      business_id,
      location_id: result.enquiry.location_id,
      message: result.message,
    });
    if (result.counts) ctx.events.emit('counts.updated', { business_id, counts: result.counts });
  }
  return result;
}

/**
 * SMS and MMS from one number share a thread: a text or a picture joins whichever of the two the customer
 * has open at the location. Every other channel is its own.
 */
async function threadChannel(tx: DbOrTx, channel: string, locationId: string, customerId: string) {
  if (channel !== 'sms' && channel !== 'mms') return channel;
  const [open] = await tx
    .select({ channel: enquiries.channel })
    .from(enquiries)
    .where(
      and(
        eq(enquiries.location_id, locationId),
        eq(enquiries.customer_id, customerId),
        eq(enquiries.status, 'open'),
        inArray(enquiries.channel, ['sms', 'mms']),
      ),
    )
    .orderBy(desc(enquiries.last_message_at))
    .limit(1);
  return open?.channel ?? channel;
}

/**
 * The enquiry a provider says a message continues (an email reply), when it is the same business, location,
 * customer and channel; a closed one is reopened and counted as open again. Null otherwise, so the message
 * goes where any other would.
 */
async function continueEnquiry(
  tx: DbOrTx,
  hint: { id: string; business_id: string; location_id: string; customer_id: string; channel: string },
) {
  if (!isUuid(hint.id)) return null;
  const [e] = await tx
    .select()
    .from(enquiries)
    .where(
      and(
        eq(enquiries.id, hint.id),
        eq(enquiries.business_id, hint.business_id),
        eq(enquiries.location_id, hint.location_id),
        eq(enquiries.customer_id, hint.customer_id),
        eq(enquiries.channel, hint.channel),
      ),
    )
    .for('update');
  if (!e) return null;
  if (e.status === 'open') return { enquiry: e, created: false, counts: null };
  const [reopened] = await tx
    .update(enquiries)
    .set({ status: 'open' })
    .where(eq(enquiries.id, e.id))
    .returning();
  const counts = await moveCounters(tx, e.location_id, e, { assigned_to: e.assigned_to, status: 'open' });
  return { enquiry: reopened!, created: false, counts };
}
