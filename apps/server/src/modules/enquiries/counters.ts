import { type DbOrTx, enquiries, locations } from '@switchboard/db';
import type { EnquiryStatus, LocationCounts } from '@switchboard/shared';
import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Context } from '../../context.ts';

type CounterState = { assigned_to: string | null; status: EnquiryStatus };
type CounterColumn =
  | 'assigned_count_open'
  | 'assigned_count_closed'
  | 'unassigned_count_open'
  | 'unassigned_count_closed';

export function counterColumn(state: CounterState): CounterColumn {
  return `${state.assigned_to ? 'assigned' : 'unassigned'}_count_${state.status}`;
}

/**
 * Moves a location's counters for one enquiry changing state (or appearing, when `before` is null): -1 on the
 * old bucket, never below zero, +1 on the new. Runs in the caller's transaction so counts never drift from
 * the rows they count.
 */
export async function moveCounters(
  tx: DbOrTx,
  locationId: string,
  before: CounterState | null,
  after: CounterState,
): Promise<LocationCounts | null> {
  const from = before ? counterColumn(before) : null;
  const to = counterColumn(after);
  if (from === to) return null;
  const set: Record<string, unknown> = { [to]: sql`${sql.identifier(to)} + 1` };
  if (from) set[from] = sql`greatest(${sql.identifier(from)} - 1, 0)`;
  const [row] = await tx.update(locations).set(set).where(eq(locations.id, locationId)).returning({
    location_id: locations.id,
    assigned_count_open: locations.assigned_count_open,
    assigned_count_closed: locations.assigned_count_closed,
    unassigned_count_open: locations.unassigned_count_open,
    unassigned_count_closed: locations.unassigned_count_closed,
  });
  return row ?? null;
}

type SnoozedByLocation = Map<string, { assigned: number; unassigned: number }>;

/**
 * Open enquiries asleep now, per location: the counters count them as open, while the Open list leaves them
 * to Snoozed until their time. A partial index holds only open snoozed rows, so this reads few.
 */
export async function snoozedOpen(db: DbOrTx, locationIds: readonly string[]): Promise<SnoozedByLocation> {
  const out: SnoozedByLocation = new Map();
  if (!locationIds.length) return out;
  const rows = await db
    .select({
      location_id: enquiries.location_id,
      assigned: sql<number>`count(*) filter (where ${enquiries.assigned_to} is not null)::int`,
      unassigned: sql<number>`count(*) filter (where ${enquiries.assigned_to} is null)::int`,
    })
    .from(enquiries)
    .where(
      and(
        inArray(enquiries.location_id, [...locationIds]),
        eq(enquiries.status, 'open'),
        isNotNull(enquiries.snoozed_until),
        sql`${enquiries.snoozed_until} > now()`,
      ),
    )
    .groupBy(enquiries.location_id);
  for (const r of rows)
    out.set(r.location_id, { assigned: Number(r.assigned), unassigned: Number(r.unassigned) });
  return out;
}

/** A location's counters as the lists show them: the open ones without those asleep now. */
export function withoutSnoozed<T extends Omit<LocationCounts, 'location_id'>>(
  counts: T,
  snoozed: { assigned: number; unassigned: number } | undefined,
): T {
  if (!snoozed) return counts;
  return {
    ...counts,
    assigned_count_open: Math.max(0, counts.assigned_count_open - snoozed.assigned),
    unassigned_count_open: Math.max(0, counts.unassigned_count_open - snoozed.unassigned),
  };
}

/** The counters as the Open list counts (see `snoozedOpen`), for one location. */
export async function visibleCounts(db: DbOrTx, counts: LocationCounts): Promise<LocationCounts> {
  const snoozed = await snoozedOpen(db, [counts.location_id]);
  return withoutSnoozed(counts, snoozed.get(counts.location_id));
}

/**
 * Tells the location's screens its counters after a change was committed, as the Open list counts them, so
 * the live number and the list agree while some enquiries sleep.
 */
export async function publishCounts(
  { db, events }: Pick<Context, 'db' | 'events'>,
  businessId: string,
  counts: LocationCounts,
): Promise<void> {
  events.emit('counts.updated', { business_id: businessId, counts: await visibleCounts(db, counts) });
}
