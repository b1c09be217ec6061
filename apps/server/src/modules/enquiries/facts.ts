import { businesses, type DbOrTx, enquiries, enquiryFacts, locations } from '@switchboard/db';
import { businessSeconds, type OpeningHours } from '@switchboard/shared';
import { eq } from 'drizzle-orm';

type EnquiryRecord = typeof enquiries.$inferSelect;
type Actor = { user_id: string | null; assistant: boolean };

/** The location's opening hours and time zone (its own, else the business's): time is counted within them. */
async function clockOf(
  tx: DbOrTx,
  locationId: string,
): Promise<{ hours: OpeningHours | null; holidays: string[]; zone: string }> {
  const [row] = await tx
    .select({
      hours: locations.opening_hours,
      holidays: locations.holidays,
      zone: locations.timezone,
      businessZone: businesses.timezone,
    })
    .from(locations)
    .innerJoin(businesses, eq(businesses.id, locations.business_id))
    .where(eq(locations.id, locationId));
  return {
    hours: (row?.hours as OpeningHours | null) ?? null,
    holidays: (row?.holidays ?? []).map((h) => h.date),
    zone: row?.zone ?? row?.businessZone ?? 'UTC',
  };
}

async function insertFact(
  tx: DbOrTx,
  e: EnquiryRecord,
  kind: 'response' | 'resolution',
  from: Date,
  to: Date,
  by: Actor,
): Promise<void> {
  const { hours, holidays, zone } = await clockOf(tx, e.location_id);
  const end = to < from ? from : to;
  await tx.insert(enquiryFacts).values({
    business_id: e.business_id,
    location_id: e.location_id,
    enquiry_id: e.id,
    kind,
    channel: e.channel,
    started_at: from,
    ended_at: end,
    seconds: Math.round((end.getTime() - from.getTime()) / 1000),
    business_seconds: Math.round(businessSeconds(from, end, hours, zone, holidays)),
    user_id: by.user_id,
    by_assistant: by.assistant,
  });
}

/**
 * A reply went to the customer (a person's, or the assistant's): if they were waiting, how long they waited is
 * recorded, and nothing waits any more. Called in the transaction that stores the reply, on the locked enquiry.
 */
export async function recordResponse(tx: DbOrTx, e: EnquiryRecord, at: Date, by: Actor): Promise<void> {
  if (!e.awaiting_since) return;
  await insertFact(tx, e, 'response', new Date(e.awaiting_since), at, by);
  await tx.update(enquiries).set({ awaiting_since: null }).where(eq(enquiries.id, e.id));
}

/**
 * An open enquiry was closed: how long it was open (since it was opened or last reopened) is recorded. A
 * question left unanswered at closing is no longer waiting.
 */
export async function recordResolution(
  tx: DbOrTx,
  e: EnquiryRecord,
  at: Date,
  userId: string | null,
): Promise<void> {
  if (e.status !== 'open') return;
  await insertFact(tx, e, 'resolution', new Date(e.cycle_started_at), at, {
    user_id: userId,
    assistant: false,
  });
  await tx.update(enquiries).set({ awaiting_since: null }).where(eq(enquiries.id, e.id));
}
