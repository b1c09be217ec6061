import { customers, messages } from '@switchboard/db';
import type { MessageStatus } from '@switchboard/shared';
import { and, eq, inArray, lte, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { announceUpdate, applyMessageStatus } from '../messages/outbound.ts';

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

/**
 * A customer unsent one of their messages (Instagram): its text and attachments are cleared, as Meta's terms ask,
 * and `meta.unsent_at` says when; the row stays so the thread shows where it was. Only that business's inbound
 * message with the provider's id is touched, once: a repeat or an unknown id changes nothing.
 */
export async function applyUnsend(
  app: FastifyInstance,
  input: { business_id: string; provider: string; provider_message_id: string; at: Date },
): Promise<boolean> {
  const [m] = await app.db
    .update(messages)
    .set({
      message: '',
      attachments: [],
      meta: sql`${messages.meta} || jsonb_build_object('unsent_at', ${input.at.toISOString()}::text)`,
    })
    .where(
      and(
        eq(messages.business_id, input.business_id),
        eq(messages.provider, input.provider),
        eq(messages.provider_message_id, input.provider_message_id),
        eq(messages.direction, 'in'),
        sql`${messages.meta}->>'unsent_at' is null`,
      ),
    )
    .returning();
  if (!m) return false;
  await announceUpdate(app, m);
  return true;
}
