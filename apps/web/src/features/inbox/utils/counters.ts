import type { EnquiryStatus, LocationCounts } from '@switchboard/shared';

export const COUNTER_NAMES = [
  'assigned_count_open',
  'assigned_count_closed',
  'unassigned_count_open',
  'unassigned_count_closed',
] as const;
export type CounterName = (typeof COUNTER_NAMES)[number];
export type Counts = Record<CounterName, number>;
export type CounterChanges = Partial<Record<CounterName, number>>;

/** Just what the counters need of the signed-in user (GET /user/me), so any feature's type fits. */
type LocationLike = Counts & { id: string; selected: boolean };
export type MeLike = {
  businesses: readonly { selected: boolean; locations: readonly LocationLike[] }[];
};

type CountedState = { status: EnquiryStatus; assigned_to: string | null; snoozed_until?: string | null };

/** Whether an open enquiry sleeps now: the Open list leaves it to Snoozed, and so does the Open count. */
function asleep({ status, snoozed_until }: CountedState, now: number): boolean {
  return status === 'open' && Boolean(snoozed_until) && Date.parse(snoozed_until ?? '') > now;
}

export function counterFor({ status, assigned_to }: CountedState): CounterName {
  const who = assigned_to ? 'assigned' : 'unassigned';
  return `${who}_count_${status}`;
}

/** What an enquiry's change (opened, closed, reopened, assigned, unassigned, snoozed, woken) does to the counters. */
export function counterChanges(
  before: CountedState | null,
  after: CountedState | null,
  now = Date.now(),
): CounterChanges {
  const changes: CounterChanges = {};
  const from = before && !asleep(before, now) ? counterFor(before) : null;
  const to = after && !asleep(after, now) ? counterFor(after) : null;
  if (from === to) return changes;
  if (from) changes[from] = -1;
  if (to) changes[to] = 1;
  return changes;
}

/** Spec §4: counts go up or down by one and never below zero. */
export function applyCounterChanges<T extends Counts>(counts: T, changes: CounterChanges): T {
  const next = { ...counts };
  for (const name of COUNTER_NAMES) {
    const delta = changes[name];
    if (delta) next[name] = Math.max(0, counts[name] + delta);
  }
  return next;
}

/**
 * Applies counter changes to the user's locations: the given location of the selected business, else the
 * selected location, else (spec §4: no location selected) the business's first location.
 */
export function bumpMeCounters<T extends MeLike>(
  me: T,
  changes: CounterChanges,
  locationId?: string | null,
): T {
  const business = me.businesses.find((b) => b.selected);
  if (!business) return me;
  const target =
    business.locations.find((l) => l.id === locationId) ??
    business.locations.find((l) => l.selected) ??
    business.locations[0];
  if (!target) return me;
  return {
    ...me,
    businesses: me.businesses.map((b) =>
      b === business
        ? { ...b, locations: b.locations.map((l) => (l === target ? applyCounterChanges(l, changes) : l)) }
        : b,
    ),
  };
}

/** The server's exact counters for one location (counts.updated), wherever that location is listed. */
export function setMeLocationCounts<T extends MeLike>(me: T, counts: LocationCounts): T {
  const { location_id, ...values } = counts;
  if (!me.businesses.some((b) => b.locations.some((l) => l.id === location_id))) return me;
  return {
    ...me,
    businesses: me.businesses.map((b) =>
      b.locations.some((l) => l.id === location_id)
        ? { ...b, locations: b.locations.map((l) => (l.id === location_id ? { ...l, ...values } : l)) }
        : b,
    ),
  };
}

/** The status tabs' numbers: open = assigned open + unassigned open; closed likewise. */
export function statusTotals(counts: Counts): Record<EnquiryStatus, number> {
  return {
    open: counts.assigned_count_open + counts.unassigned_count_open,
    closed: counts.assigned_count_closed + counts.unassigned_count_closed,
  };
}
