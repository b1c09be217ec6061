import { customers, type DbOrTx, enquiries, messages, queryRows } from '@switchboard/db';
import { and, eq, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../errors.ts';
import { toEnquiryRow } from '../enquiries/dto.ts';
import { recordResponse } from '../enquiries/facts.ts';
import { preview, toMessageDto } from './dto.ts';
import { consumeDailyLimit, enqueueSend } from './service.ts';

type EnquiryRecord = typeof enquiries.$inferSelect;
type CustomerRecord = typeof customers.$inferSelect;

export type AutomaticMessage = {
  enquiry_id: string;
  message: string;
  /** Unique within the enquiry: asking twice sends once. */
  client_id: string;
  /** `auto` names what sent it (`meta.auto`); the rest is the sender's own. */
  meta: { auto: string } & Record<string, unknown>;
  /** Another channel than the enquiry's (a call's text-back goes by SMS). */
  channel?: string;
  ai_interaction?: 'ai_generated';
  email_subject?: string;
  /** Checked with the enquiry locked; false sends nothing (the conversation moved on). */
  when?: (enquiry: EnquiryRecord, customer: CustomerRecord) => boolean;
  /** More of the enquiry to change with the message (counters, a handover). */
  enquiry_set?: PgUpdateSetSource<typeof enquiries>;
};

/**
 * The most automatic emails one customer's address gets, whatever sends them: the last guard against a mail
 * loop with an autoresponder that marks nothing (the first is that automatic mail is never answered).
 */
export const AUTOMATIC_EMAILS_PER_HOUR = 5;
export const AUTOMATIC_EMAILS_PER_DAY = 15;

export type AutomaticOutcome =
  | { sent: true; enquiry: EnquiryRecord; customer: CustomerRecord; message: typeof messages.$inferSelect }
  | { sent: false; reason: string };

/**
 * A message the business sends by itself (no teammate wrote it): the assistant's reply, a missed call's
 * text-back, an invoice reminder, a review request. Checked like a staff reply (the channel can reach the
 * customer; the daily message limit), stored queued in the enquiry's thread, announced live and handed to
 * the send job. What cannot be sent is not an error: the outcome says why.
 */
export async function sendAutomatic(
  app: FastifyInstance,
  input: AutomaticMessage,
): Promise<AutomaticOutcome> {
  const outcome = await app.db.transaction(async (tx): Promise<AutomaticOutcome> => {
    const [e] = await tx.select().from(enquiries).where(eq(enquiries.id, input.enquiry_id)).for('update');
    if (!e) return { sent: false, reason: 'the enquiry is gone' };
    const [customer] = await tx.select().from(customers).where(eq(customers.id, e.customer_id));
    if (!customer) return { sent: false, reason: 'the customer is gone' };
    if (input.when && !input.when(e, customer)) return { sent: false, reason: 'no longer wanted' };
    const [already] = await tx
      .select({ id: messages.id })
      .from(messages)
      .where(and(eq(messages.enquiry_id, e.id), eq(messages.client_id, input.client_id)));
    if (already) return { sent: false, reason: 'already sent' };
    const channel = input.channel ?? e.channel;
    if (channel === 'email' && (await automaticEmailsSpent(tx, e)))
      return { sent: false, reason: 'the customer has had as many automatic emails as a loop would send' };
    try {
      await app.channels.checkSend({
        tx,
        business_id: e.business_id,
        location_id: e.location_id,
        enquiry_id: e.id,
        channel,
        customer,
        message: input.message,
        attachments: 0,
      });
      await consumeDailyLimit(tx, e.business_id);
    } catch (error) {
      if (error instanceof AppError) return { sent: false, reason: error.message };
      throw error;
    }
    const subject = channel === 'email' ? (input.email_subject ?? e.title ?? undefined) : undefined;
    const [message] = await tx
      .insert(messages)
      .values({
        business_id: e.business_id,
        enquiry_id: e.id,
        customer_id: e.customer_id,
        channel,
        direction: 'out',
        message: input.message,
        meta: { ...input.meta, ...(subject ? { subject } : {}) },
        status: 'queued',
        client_id: input.client_id,
        ai_interaction: input.ai_interaction ?? null,
      })
      .returning();
    // The assistant's answer ends the customer's wait; the business's other messages (reminders) do not.
    if (input.ai_interaction)
      await recordResponse(tx, e, new Date(message!.created_at), { user_id: null, assistant: true });
    const [updated] = await tx
      .update(enquiries)
      .set({
        last_message_at: message!.created_at,
        last_message_preview: preview(input.message, 0),
        ...input.enquiry_set,
      })
      .where(eq(enquiries.id, e.id))
      .returning();
    return { sent: true, enquiry: updated!, customer, message: message! };
  });
  if (!outcome.sent) return outcome;
  app.events.emit('message.created', {
    business_id: outcome.enquiry.business_id,
    location_id: outcome.enquiry.location_id,
    message: toMessageDto(outcome.message, null),
  });
  app.events.emit('enquiry.updated', {
    business_id: outcome.enquiry.business_id,
    enquiry: toEnquiryRow(outcome.enquiry, outcome.customer),
  });
  await enqueueSend(app.jobs, outcome.message.id);
  return outcome;
}

/** Whether the customer has had their hour's or day's automatic emails (see AUTOMATIC_EMAILS_PER_HOUR). */
async function automaticEmailsSpent(tx: DbOrTx, e: EnquiryRecord): Promise<boolean> {
  const [row] = await queryRows<{ hour: number; day: number }>(
    tx,
    sql`select count(*) filter (where created_at > now() - interval '1 hour')::int as hour, count(*)::int as day
        from messages
        where business_id = ${e.business_id} and created_at > now() - interval '1 day'
          and customer_id = ${e.customer_id} and direction = 'out' and channel = 'email'
          and team_user_id is null and meta ? 'auto'`,
  );
  return (row?.hour ?? 0) >= AUTOMATIC_EMAILS_PER_HOUR || (row?.day ?? 0) >= AUTOMATIC_EMAILS_PER_DAY;
}
