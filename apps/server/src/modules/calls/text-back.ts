import { businesses, calls, customers, enquiries, locations, messages } from '@switchboard/db';
import { nextBusinessDay, renderTemplate } from '@switchboard/shared';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../errors.ts';
import { callTextBack } from '../../jobs/definitions/call-transcribe.ts';
import { toEnquiryRow } from '../enquiries/dto.ts';
import { preview, toMessageDto } from '../messages/dto.ts';
import { consumeDailyLimit, enqueueSend } from '../messages/service.ts';
import { CALL_CHANNEL } from './replies.ts';

/** What marks a message as the automatic text after a missed call (`meta.auto`). */
export const MISSED_CALL_AUTO = 'missed_call_text';

/** Queues the text-back for a call that was missed; one per call, however often it is asked. */
export async function queueTextBack(app: FastifyInstance, callId: string): Promise<void> {
  await app.jobs.send(callTextBack, { call_id: callId }, { singletonKey: callId });
}

/**
 * Texts a caller nobody answered, with the location's missed-call text (placeholders filled in), by SMS through
 * the location's SMS channel, as a reply in the call's conversation. Not when the location has no text, the
 * call was answered after all, or it was already sent; over the daily message limit it is not sent.
 */
export async function textBack(app: FastifyInstance, job: { call_id: string }): Promise<void> {
  const [row] = await app.db
    .select({
      call: calls,
      text: locations.missed_call_text,
      location_name: locations.name,
      business: businesses,
    })
    .from(calls)
    .innerJoin(locations, eq(locations.id, calls.location_id))
    .innerJoin(businesses, eq(businesses.id, calls.business_id))
    .where(eq(calls.id, job.call_id));
  if (!row?.text || row.call.direction !== 'in' || row.call.user_id) return;
  const { call } = row;
  const [customer] = await app.db.select().from(customers).where(eq(customers.id, call.customer_id));
  if (!customer?.phone || customer.sms_opted_out) return;
  const body = renderTemplate(row.text, {
    first_name: customer.first_name,
    business_name: row.business.name,
    location_name: row.location_name,
    business_day: nextBusinessDay(new Date(), row.business.timezone),
  }).trim();
  if (!body) return;
  let sent: { message: typeof messages.$inferSelect; enquiry: typeof enquiries.$inferSelect } | null;
  try {
    sent = await app.db.transaction(async (tx) => {
      const [already] = await tx
        .select({ id: messages.id })
        .from(messages)
        .where(eq(messages.client_id, `missed-call:${call.id}`));
      if (already) return null;
      await consumeDailyLimit(tx, call.business_id);
      const [message] = await tx
        .insert(messages)
        .values({
          business_id: call.business_id,
          enquiry_id: call.enquiry_id,
          customer_id: call.customer_id,
          channel: CALL_CHANNEL,
          direction: 'out',
          message: body,
          meta: { auto: MISSED_CALL_AUTO },
          status: 'queued',
          client_id: `missed-call:${call.id}`,
        })
        .returning();
      const [enquiry] = await tx
        .update(enquiries)
        .set({ last_message_at: message!.created_at, last_message_preview: preview(body, 0) })
        .where(eq(enquiries.id, call.enquiry_id))
        .returning();
      return { message: message!, enquiry: enquiry! };
    });
  } catch (error) {
    // Over the daily limit: the text is not sent, and nothing is retried.
    if (error instanceof AppError && error.code === 'message_limit_reached') {
      app.log.warn({ call_id: call.id }, 'missed-call text not sent: daily message limit reached');
      return;
    }
    throw error;
  }
  if (!sent) return;
  app.events.emit('message.created', {
    business_id: call.business_id,
    location_id: call.location_id,
    message: toMessageDto(sent.message, null),
  });
  app.events.emit('enquiry.updated', {
    business_id: call.business_id,
    enquiry: toEnquiryRow(sent.enquiry, customer),
  });
  await enqueueSend(app.jobs, sent.message.id);
}
