import { type DbOrTx, locations } from '@switchboard/db';
import type { EnquiryStatus, LocationCounts } from '@switchboard/shared';
import { eq, sql } from 'drizzle-orm';

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
