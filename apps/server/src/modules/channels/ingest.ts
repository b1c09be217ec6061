import { customers, messages } from '@switchboard/db';
import type { MessageStatus } from '@switchboard/shared';
import { and, eq, inArray, lte, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { InboundMessage } from '../../channels/types.ts';
import type { MediaRef } from '../../jobs/definitions/inbound-media.ts';
import { ingestInbound } from '../messages/inbound.ts';
import { applyMessageStatus } from '../messages/outbound.ts';
import type { Account } from './accounts.ts';
import { queueMediaDownload } from './media.ts';

export type StoreResult = 'stored' | 'duplicate';

async function storedMessage(app: FastifyInstance, provider: string, id: string) {
  const [row] = await app.db
    .select({ id: messages.id, meta: messages.meta })
    .from(messages)
    .where(and(eq(messages.provider, provider), eq(messages.provider_message_id, id)))
    .limit(1);
  return row;
}

/**
 * Stores one inbound provider message through the one inbound pipeline. A repeat of a stored provider id
 * changes nothing. Its media is downloaded by a job once the provider has had its answer (see media.ts).
 */
export async function storeInbound(
  app: FastifyInstance,
  account: Account,
  inbound: Omit<InboundMessage, 'location_id' | 'attachments'>,
  media: MediaRef[] = [],
): Promise<StoreResult> {
  const queue = (messageId: string) =>
    queueMediaDownload(app, { message_id: messageId, account_id: account.row.id, media });
  const stored = await storedMessage(app, inbound.provider, inbound.provider_message_id);
  if (stored) {
    // Stored, but its media never queued (the server stopped before answering, so the provider tried again).
    if (media.length && 'media_pending' in stored.meta) await queue(stored.id);
    return 'duplicate';
  }
  const result = await ingestInbound(app, {
    ...inbound,
    meta: { ...(inbound.meta ?? {}), ...(media.length ? { media_pending: media.length } : {}) },
    location_id: account.row.location_id,
    attachments: [],
    attachments_to_come: media.length,
  });
  if (result.duplicate) return 'duplicate';
  if (media.length) await queue(result.message.id);
  return 'stored';
}

/** The customer who sent a stored inbound message. */
export async function customerOfMessage(app: FastifyInstance, provider: string, providerMessageId: string) {
  const [row] = await app.db
    .select({ id: messages.customer_id })
    .from(messages)
    .where(and(eq(messages.provider, provider), eq(messages.provider_message_id, providerMessageId)));
  return row?.id;
}

export async function setSmsOptOut(app: FastifyInstance, customerId: string, optedOut: boolean) {
  await app.db.update(customers).set({ sms_opted_out: optedOut }).where(eq(customers.id, customerId));
}

/**
 * A provider's status report for one of our messages, limited to the businesses whose credentials signed the
 * report. Matched by the provider's id, or, when the report beats the send job's own update, by our message
 * id that the provider echoes back (Twilio's StatusCallback query, WhatsApp's biz_opaque_callback_data).
 */
export async function applyProviderStatus(
  app: FastifyInstance,
  input: {
    businessIds: string[];
    provider: string;
    provider_message_id: string;
    our_message_id?: string | null;
    status: MessageStatus;
    error?: string | null;
  },
): Promise<boolean> {
  const ctx = { db: app.db, events: app.events };
  const scope = inArray(messages.business_id, input.businessIds);
  const [byProviderId] = await app.db
    .select({ id: messages.id })
    .from(messages)
    .where(
      and(
        eq(messages.provider, input.provider),
        eq(messages.provider_message_id, input.provider_message_id),
        scope,
      ),
    );
  const extra =
    input.status === 'failed' ? { error: input.error ?? 'The provider could not deliver the message.' } : {};
  if (byProviderId) return applyMessageStatus(ctx, { id: byProviderId.id }, input.status, extra);
  const ourId = input.our_message_id;
  if (!ourId || !/^[0-9a-f-]{36}$/i.test(ourId)) return false;
  const [byOurId] = await app.db
    .select({ id: messages.id })
    .from(messages)
    .where(and(eq(messages.id, ourId), eq(messages.direction, 'out'), scope));
  if (!byOurId) return false;
  return applyMessageStatus(ctx, { id: byOurId.id }, input.status, {
    ...extra,
    provider: input.provider,
    provider_message_id: input.provider_message_id,
  });
}

/** Messenger reports "delivered/read up to this time" for a conversation: every earlier message moves. */
export async function applyWatermark(
  app: FastifyInstance,
  input: {
    businessId: string;
    provider: string;
    channel: string;
    external_id: string;
    watermark: Date;
    status: MessageStatus;
  },
): Promise<number> {
  const rows = await app.db
    .select({ id: messages.id })
    .from(messages)
    .innerJoin(customers, eq(customers.id, messages.customer_id))
    .where(
      and(
        eq(messages.business_id, input.businessId),
        eq(messages.provider, input.provider),
        eq(messages.direction, 'out'),
        lte(messages.created_at, input.watermark),
        sql`${customers.external_ids} ->> ${input.channel} = ${input.external_id}`,
        inArray(messages.status, ['sent', 'delivered']),
      ),
    );
  let moved = 0;
  for (const { id } of rows) {
    if (await applyMessageStatus({ db: app.db, events: app.events }, { id }, input.status)) moved++;
  }
  return moved;
}
