import { businesses, calls, customers, locations } from '@switchboard/db';
import { nextBusinessDay, renderTemplate } from '@switchboard/shared';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { callTextBack } from '../../jobs/definitions/call-transcribe.ts';
import type { OutboxEntry } from '../../plugins/jobs.ts';
import { sendAutomatic } from '../messages/automatic.ts';
import { CALL_CHANNEL } from './replies.ts';

/** What marks a message as the automatic text after a missed call (`meta.auto`). */
export const MISSED_CALL_AUTO = 'missed_call_text';

/**
 * The text-back for a call that was missed, as an outbox entry: written in the transaction that marks the
 * call missed, so a server stopping right after cannot lose it; its job id is the call's, so asking again
 * (a voicemail arriving after the status) queues it once.
 */
export function textBackEntry(app: Pick<FastifyInstance, 'jobs'>, callId: string): OutboxEntry {
  return app.jobs.entry(callTextBack, { call_id: callId }, { id: callId, singletonKey: callId });
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
      location_zone: locations.timezone,
      holidays: locations.holidays,
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
    business_day: nextBusinessDay(
      new Date(),
      row.location_zone ?? row.business.timezone,
      row.holidays.map((h) => h.date),
    ),
  }).trim();
  if (!body) return;
  const outcome = await sendAutomatic(app, {
    enquiry_id: call.enquiry_id,
    message: body,
    client_id: `missed-call:${call.id}`,
    meta: { auto: MISSED_CALL_AUTO },
    channel: CALL_CHANNEL,
  });
  // Over the daily limit (or otherwise unsendable): the text is not sent, and nothing is retried.
  if (!outcome.sent && outcome.reason !== 'already sent')
    app.log.warn({ call_id: call.id, reason: outcome.reason }, 'missed-call text not sent');
}
