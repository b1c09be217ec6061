import {
  businesses,
  businessMembers,
  customers,
  type DbOrTx,
  enquiries,
  enquiryNotes,
  locations,
  users,
} from '@switchboard/db';
import {
  dateRangeBounds,
  type EnquiryBulkRequest,
  type EnquiryListQuery,
  type EnquiryRow,
  isUuid,
  type LocationCounts,
  type Note,
  type UnreadCounts,
} from '@switchboard/shared';
import { and, asc, desc, eq, gte, inArray, isNull, lte, type SQL, sql } from 'drizzle-orm';
import type { Context } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { enquiryWake } from '../../jobs/definitions/enquiry-wake.ts';
import { atTheirLocations, type BusinessActor, requireBusiness, worksAt } from '../../plugins/auth.ts';
import { assertOwnLabels } from '../labels/service.ts';
import { moveCounters, publishCounts, snoozedOpen, withoutSnoozed } from './counters.ts';
import { toEnquiryRow } from './dto.ts';
import { recordResolution } from './facts.ts';
import { searchEnquiryIds } from './search.ts';

export type Ctx = Pick<Context, 'db' | 'events' | 'actor'>;

export const enquiryNotFound = () => new AppError('enquiry_not_found', 'Enquiry not found!');

const noLocationOfTheirs = () =>
  new AppError('not_found', 'You are not given any location of this business yet. Ask the business owner.');

/**
 * The location a request works in: the one asked for (if it is the business's and the caller works there),
 * else the selected one.
 */
export async function resolveLocation(
  db: DbOrTx,
  actor: BusinessActor,
  locationId?: string,
): Promise<string> {
  const wanted = locationId ?? actor.location_id;
  if (actor.location_ids) {
    if (wanted && worksAt(actor, wanted)) return wanted;
    if (locationId) throw new AppError('not_found', 'Location not found.');
    if (!actor.location_ids[0]) throw noLocationOfTheirs();
    return actor.location_ids[0];
  }
  if (wanted) {
    const [row] = await db
      .select({ id: locations.id })
      .from(locations)
      .where(and(eq(locations.id, wanted), eq(locations.business_id, actor.business_id)));
    if (row) return row.id;
    if (locationId) throw new AppError('not_found', 'Location not found.');
  }
  // No location selected: the business's first location (spec §4).
  const [first] = await db
    .select({ id: locations.id })
    .from(locations)
    .where(eq(locations.business_id, actor.business_id))
    .orderBy(locations.precedence, locations.created_at)
    .limit(1);
  if (!first) throw new AppError('not_found', 'This business has no locations yet.');
  return first.id;
}

export async function listEnquiries(
  { db, actor }: Ctx,
  query: EnquiryListQuery,
): Promise<{
  items: EnquiryRow[];
  page: number;
  page_size: number;
  total: number | null;
  has_more: boolean;
}> {
  const a = requireBusiness(actor);
  const all = query.all_locations === 'true';
  const locationId = all ? null : await resolveLocation(db, a, query.location_id);
  const where: SQL[] = [eq(enquiries.business_id, a.business_id), eq(enquiries.status, query.status)];
  if (locationId) where.push(eq(enquiries.location_id, locationId));
  const atTheirs = locationId ? undefined : atTheirLocations(a, enquiries.location_id);
  if (atTheirs) where.push(atTheirs);
  // A snoozed enquiry is left out of the open list until its time (or listed alone with `snoozed=true`).
  if (query.status === 'open') {
    where.push(
      query.snoozed === 'true'
        ? sql`${enquiries.snoozed_until} > now()`
        : sql`(${enquiries.snoozed_until} is null or ${enquiries.snoozed_until} <= now())`,
    );
  }
  if (query.view === 'mine') where.push(eq(enquiries.assigned_to, a.user_id));
  if (query.label) where.push(sql`${enquiries.labels} @> array[${query.label}::uuid]`);
  if (query.view === 'unassigned') where.push(isNull(enquiries.assigned_to));
  if (query.assigned_to) where.push(eq(enquiries.assigned_to, query.assigned_to));
  if (query.channels?.length) where.push(inArray(enquiries.channel, query.channels));
  if (query.source) where.push(eq(enquiries.source, query.source));
  if (query.medium) where.push(eq(enquiries.medium, query.medium));
  if (query.start_date || query.end_date) {
    const timezone = await businessTimezone(db, a.business_id);
    const bounds = parseRange(
      query.start_date ?? query.end_date!,
      query.end_date ?? query.start_date!,
      timezone,
    );
    where.push(gte(enquiries.last_message_at, bounds.from), lte(enquiries.last_message_at, bounds.to));
  }
  if (query.q) {
    const ids = await searchEnquiryIds(db, {
      businessId: a.business_id,
      where,
      q: query.q,
      needed: query.page * query.page_size + 1,
    });
    if (!ids.length) {
      return { items: [], page: query.page, page_size: query.page_size, total: null, has_more: false };
    }
    where.push(inArray(enquiries.id, ids));
  }

  const rows = await db
    .select({ e: enquiries, c: { name: customers.name, phone: customers.phone, email: customers.email } })
    .from(enquiries)
    .innerJoin(customers, eq(customers.id, enquiries.customer_id))
    .where(and(...where))
    .orderBy(desc(enquiries.last_message_at), desc(enquiries.id))
    .limit(query.page_size + 1)
    .offset((query.page - 1) * query.page_size);

  const has_more = rows.length > query.page_size;
  const items = rows.slice(0, query.page_size).map((r) => toEnquiryRow(r.e, r.c));
  const filtered = Boolean(
    query.assigned_to ||
      query.channels?.length ||
      query.source ||
      query.medium ||
      query.q ||
      query.start_date ||
      query.end_date ||
      query.snoozed === 'true' ||
      query.label ||
      !locationId,
  );
  // Totals come from the exact location counters; a filtered list answers has_more instead of counting.
  const total =
    filtered || !locationId || query.view === 'mine' ? null : await counterTotal(db, locationId, query);
  return { items, page: query.page, page_size: query.page_size, total, has_more };
}

export function parseRange(start: string, end: string, timezone: string) {
  try {
    return dateRangeBounds(start, end, timezone);
  } catch (error) {
    throw new AppError(
      'bad_request',
      error instanceof RangeError ? error.message : 'start_date/end_date are not valid dates.',
    );
  }
}

async function counterTotal(db: DbOrTx, locationId: string, query: EnquiryListQuery): Promise<number> {
  const counts = await getLocationCounts(db, locationId);
  const unassigned = query.status === 'open' ? counts.unassigned_count_open : counts.unassigned_count_closed;
  const assigned = query.status === 'open' ? counts.assigned_count_open : counts.assigned_count_closed;
  return query.view === 'unassigned' ? unassigned : unassigned + assigned;
}

export async function businessTimezone(db: DbOrTx, businessId: string): Promise<string> {
  const [b] = await db
    .select({ timezone: businesses.timezone })
    .from(businesses)
    .where(eq(businesses.id, businessId));
  return b?.timezone ?? 'Australia/Melbourne';
}

export async function getLocationCounts(db: DbOrTx, locationId: string): Promise<LocationCounts> {
  const [row] = await db
    .select({
      location_id: locations.id,
      assigned_count_open: locations.assigned_count_open,
      assigned_count_closed: locations.assigned_count_closed,
      unassigned_count_open: locations.unassigned_count_open,
      unassigned_count_closed: locations.unassigned_count_closed,
    })
    .from(locations)
    .where(eq(locations.id, locationId));
  if (!row) throw new AppError('not_found', 'Location not found.');
  // Open counts what the Open list shows: a snoozed enquiry is in Snoozed only.
  return withoutSnoozed(row, (await snoozedOpen(db, [locationId])).get(locationId));
}

export async function getCounts(
  { db, actor }: Ctx,
  locationId?: string,
  allLocations = false,
): Promise<LocationCounts> {
  const a = requireBusiness(actor);
  if (!allLocations) return getLocationCounts(db, await resolveLocation(db, a, locationId));
  // Every location together: the sums of their exact counters, less what sleeps in each.
  const theirs = await db
    .select({ id: locations.id })
    .from(locations)
    .where(and(eq(locations.business_id, a.business_id), atTheirLocations(a, locations.id)));
  const snoozed = [
    ...(
      await snoozedOpen(
        db,
        theirs.map((l) => l.id),
      )
    ).values(),
  ].reduce((sum, x) => ({ assigned: sum.assigned + x.assigned, unassigned: sum.unassigned + x.unassigned }), {
    assigned: 0,
    unassigned: 0,
  });
  const [row] = await db
    .select({
      assigned_count_open: sql<number>`coalesce(sum(${locations.assigned_count_open}), 0)::int`,
      assigned_count_closed: sql<number>`coalesce(sum(${locations.assigned_count_closed}), 0)::int`,
      unassigned_count_open: sql<number>`coalesce(sum(${locations.unassigned_count_open}), 0)::int`,
      unassigned_count_closed: sql<number>`coalesce(sum(${locations.unassigned_count_closed}), 0)::int`,
    })
    .from(locations)
    .where(and(eq(locations.business_id, a.business_id), atTheirLocations(a, locations.id)));
  return withoutSnoozed(
    {
      location_id: 'all',
      assigned_count_open: Number(row?.assigned_count_open ?? 0),
      assigned_count_closed: Number(row?.assigned_count_closed ?? 0),
      unassigned_count_open: Number(row?.unassigned_count_open ?? 0),
      unassigned_count_closed: Number(row?.unassigned_count_closed ?? 0),
    },
    snoozed,
  );
}

/** Open enquiries with something not yet seen, per location of the caller's business (locations with none: 0). */
export async function getUnreadCounts({ db, actor }: Ctx): Promise<UnreadCounts> {
  const a = requireBusiness(actor);
  const rows = await db
    .select({ location_id: locations.id, unread: sql<number>`count(${enquiries.id})::int` })
    .from(locations)
    .leftJoin(
      enquiries,
      and(
        eq(enquiries.location_id, locations.id),
        eq(enquiries.business_id, a.business_id),
        eq(enquiries.status, 'open'),
        eq(enquiries.seen, false),
        sql`(${enquiries.snoozed_until} is null or ${enquiries.snoozed_until} <= now())`,
      ),
    )
    .where(and(eq(locations.business_id, a.business_id), atTheirLocations(a, locations.id)))
    .groupBy(locations.id)
    .orderBy(asc(locations.precedence), asc(locations.created_at));
  return { items: rows.map((r) => ({ location_id: r.location_id, unread: Number(r.unread) })) };
}

/**
 * Whose enquiry may be loaded: a business (for jobs and webhooks, which act for nobody), or the person acting,
 * who also sees only the locations they work at.
 */
export type EnquiryScope = string | BusinessActor;

/**
 * One enquiry of the business, or "Enquiry not found!" (also for another tenant's id, and for an enquiry at a
 * location the acting staff member does not work at).
 */
export async function loadEnquiry(db: DbOrTx, scope: EnquiryScope, id: string, lock = false) {
  if (!isUuid(id)) throw enquiryNotFound();
  const businessId = typeof scope === 'string' ? scope : scope.business_id;
  const atTheirs = typeof scope === 'string' ? undefined : atTheirLocations(scope, enquiries.location_id);
  const q = db
    .select({ e: enquiries, c: { name: customers.name, phone: customers.phone, email: customers.email } })
    .from(enquiries)
    .innerJoin(customers, eq(customers.id, enquiries.customer_id))
    .where(and(eq(enquiries.id, id), eq(enquiries.business_id, businessId), atTheirs));
  const [row] = lock ? await q.for('update', { of: enquiries }) : await q;
  if (!row) throw enquiryNotFound();
  return row;
}

export async function getEnquiry({ db, actor }: Ctx, id: string): Promise<EnquiryRow> {
  const a = requireBusiness(actor);
  const { e, c } = await loadEnquiry(db, a, id);
  return toEnquiryRow(e, c);
}

/** The longest snooze: a year ahead. */
const MAX_SNOOZE_MS = 366 * 86_400_000;

type EnquiryState = { status: 'open' | 'closed'; assigned_to: string | null };

/**
 * Who assigned, unassigned, closed or reopened the enquiry, written into its thread as event lines (with the
 * person who did it), so the team reads the enquiry's history where they read the conversation.
 */
async function recordChanges(
  tx: DbOrTx,
  a: BusinessActor,
  enquiryId: string,
  before: EnquiryState,
  after: EnquiryState,
): Promise<Note[]> {
  const lines: string[] = [];
  const ids = [a.user_id, after.assigned_to].filter((x): x is string => Boolean(x));
  const named = new Map(
    (
      await tx.select({ id: users.id, full_name: users.full_name }).from(users).where(inArray(users.id, ids))
    ).map((u) => [u.id, u.full_name.trim() || 'A teammate']),
  );
  const by = named.get(a.user_id) ?? 'A teammate';
  if (before.status === 'closed' && after.status === 'open') lines.push(`Reopened by ${by}`);
  if (before.assigned_to !== after.assigned_to) {
    if (!after.assigned_to) lines.push(`Unassigned by ${by}`);
    else if (after.assigned_to === a.user_id) lines.push(`Assigned to ${by} by themselves`);
    else lines.push(`Assigned to ${named.get(after.assigned_to) ?? 'a teammate'} by ${by}`);
  }
  if (before.status === 'open' && after.status === 'closed') lines.push(`Closed by ${by}`);
  if (!lines.length) return [];
  const rows = await tx
    .insert(enquiryNotes)
    .values(
      lines.map((body) => ({
        business_id: a.business_id,
        enquiry_id: enquiryId,
        user_id: a.user_id,
        kind: 'event' as const,
        body,
      })),
    )
    .returning();
  return rows.map((n) => ({
    id: n.id,
    enquiry_id: n.enquiry_id,
    kind: n.kind,
    user_id: n.user_id,
    author: null,
    body: n.body,
    mentions: n.mentions,
    created_at: n.created_at.toISOString(),
  }));
}

export async function updateEnquiry(
  { db, events, actor, jobs }: Ctx & Pick<Context, 'jobs'>,
  id: string,
  patch: {
    status?: 'open' | 'closed';
    assigned_to?: string | null;
    title?: string | null;
    snoozed_until?: string | null;
    labels?: string[];
  },
): Promise<EnquiryRow> {
  const a = requireBusiness(actor);
  const until = patch.snoozed_until ? new Date(patch.snoozed_until) : null;
  if (until && (until.getTime() <= Date.now() || until.getTime() > Date.now() + MAX_SNOOZE_MS)) {
    throw new AppError('unprocessable', 'Snooze until a time in the future, at most a year ahead.');
  }
  const result = await db.transaction(async (tx) => {
    // The row lock makes concurrent assign/close of one enquiry take turns, so each sees the state it changes.
    const { e, c } = await loadEnquiry(tx, a, id, true);
    if (patch.assigned_to) {
      const [member] = await tx
        .select({ user_id: businessMembers.user_id })
        .from(businessMembers)
        .where(
          and(eq(businessMembers.business_id, a.business_id), eq(businessMembers.user_id, patch.assigned_to)),
        );
      if (!member) throw new AppError('unprocessable', 'That person is not a member of this business.');
    }
    const next = {
      status: patch.status ?? e.status,
      assigned_to: patch.assigned_to === undefined ? e.assigned_to : patch.assigned_to,
    };
    if (until && next.status === 'closed') {
      throw new AppError('unprocessable', 'A closed enquiry cannot be snoozed. Reopen it first.');
    }
    const labelIds =
      patch.labels === undefined ? undefined : await assertOwnLabels(tx, a.business_id, patch.labels);
    // Closing ends a snooze; otherwise it changes only when asked.
    const snoozed_until =
      next.status === 'closed' ? null : patch.snoozed_until === undefined ? e.snoozed_until : until;
    if (next.status === 'closed') await recordResolution(tx, e, new Date(), a.user_id);
    const reopened = next.status === 'open' && e.status === 'closed';
    const [updated] = await tx
      .update(enquiries)
      .set({
        ...next,
        snoozed_until,
        ...(reopened ? { cycle_started_at: new Date() } : {}),
        ...(patch.title === undefined ? {} : { title: patch.title }),
        ...(labelIds === undefined ? {} : { labels: labelIds }),
      })
      .where(eq(enquiries.id, e.id))
      .returning();
    const moved = await moveCounters(tx, e.location_id, e, next);
    const notes = await recordChanges(tx, a, e.id, e, next);
    const slept = (e.snoozed_until?.getTime() ?? null) !== (snoozed_until?.getTime() ?? null);
    return { enquiry: toEnquiryRow(updated!, c), countsChanged: Boolean(moved) || slept, notes };
  });
  // After the commit: the job wakes it on time (its payload names the time, so a changed snooze's old job
  // finds nothing to do).
  if (until)
    await jobs.send(
      enquiryWake,
      { enquiry_id: result.enquiry.id, until: until.toISOString() },
      { startAfter: until, singletonKey: `${result.enquiry.id}:${until.toISOString()}` },
    );
  events.emit('enquiry.updated', { business_id: a.business_id, enquiry: result.enquiry });
  for (const note of result.notes)
    events.emit('note.created', {
      business_id: a.business_id,
      location_id: result.enquiry.location_id,
      enquiry: result.enquiry,
      note,
      mentioned: [],
    });
  // A snooze begun or ended moves the Open count too, though no counter moved.
  if (result.countsChanged)
    events.emit('counts.updated', {
      business_id: a.business_id,
      counts: await getLocationCounts(db, result.enquiry.location_id),
    });
  return result.enquiry;
}

/**
 * `POST /enquiries/bulk`: the same change to each selected enquiry, each in its own transaction (its row
 * lock, counters and events as if changed alone). Every id must be the business's, or nothing changes.
 */
export async function bulkUpdateEnquiries(
  ctx: Ctx & Pick<Context, 'jobs'>,
  input: EnquiryBulkRequest,
): Promise<EnquiryRow[]> {
  const a = requireBusiness(ctx.actor);
  const ids = [...new Set(input.ids)];
  const found = await ctx.db
    .select({ id: enquiries.id, labels: enquiries.labels })
    .from(enquiries)
    .where(
      and(
        eq(enquiries.business_id, a.business_id),
        inArray(enquiries.id, ids),
        atTheirLocations(a, enquiries.location_id),
      ),
    );
  if (found.length !== ids.length) throw enquiryNotFound();
  const { add_labels = [], remove_labels = [], ...rest } = input.patch;
  if (add_labels.length) await assertOwnLabels(ctx.db, a.business_id, add_labels);
  const out: EnquiryRow[] = [];
  for (const { id, labels: current } of found) {
    const labels =
      add_labels.length || remove_labels.length
        ? [...new Set([...current, ...add_labels])].filter((l) => !remove_labels.includes(l))
        : undefined;
    out.push(await updateEnquiry(ctx, id, { ...rest, ...(labels ? { labels } : {}) }));
  }
  return out;
}

/**
 * A snoozed enquiry's time has come (the `enquiry.wake` job): it is cleared of its snooze and marked unread,
 * screens hear of it live, and its assignee is told. A snooze changed or ended meanwhile is left alone.
 */
export async function wakeEnquiry(
  { db, events }: Pick<Context, 'db' | 'events'>,
  job: { enquiry_id: string; until: string },
): Promise<void> {
  const [woke] = await db
    .update(enquiries)
    .set({ snoozed_until: null, seen: false })
    .where(and(eq(enquiries.id, job.enquiry_id), eq(enquiries.snoozed_until, new Date(job.until))))
    .returning();
  if (!woke) return;
  const [c] = await db
    .select({ name: customers.name, phone: customers.phone, email: customers.email })
    .from(customers)
    .where(eq(customers.id, woke.customer_id));
  const enquiry = toEnquiryRow(woke, c ?? { name: null, phone: null, email: null });
  events.emit('enquiry.updated', { business_id: woke.business_id, enquiry });
  events.emit('enquiry.woke', { business_id: woke.business_id, enquiry });
  // Back in Open: the Open count takes it in again.
  events.emit('counts.updated', {
    business_id: woke.business_id,
    counts: await getLocationCounts(db, woke.location_id),
  });
}

/**
 * Closes an enquiry because something finished it (its invoice was paid, when the sender asked for that): its
 * counters move and screens hear of it as when a person closes it. An enquiry already closed is left alone.
 */
export async function closeEnquiryFor(
  { db, events }: Pick<Context, 'db' | 'events'>,
  businessId: string,
  enquiryId: string,
): Promise<void> {
  const result = await db.transaction(async (tx) => {
    const { e, c } = await loadEnquiry(tx, businessId, enquiryId, true);
    if (e.status === 'closed') return null;
    const next = { status: 'closed' as const, assigned_to: e.assigned_to };
    await recordResolution(tx, e, new Date(), null);
    const [updated] = await tx
      .update(enquiries)
      // Finished: nobody needs to step in any more, so it leaves the "Needs a person" list too.
      .set({ status: 'closed', snoozed_until: null, ai_handoff_at: null })
      .where(eq(enquiries.id, e.id))
      .returning();
    const counts = await moveCounters(tx, e.location_id, e, next);
    return { enquiry: toEnquiryRow(updated!, c), counts };
  });
  if (!result) return;
  events.emit('enquiry.updated', { business_id: businessId, enquiry: result.enquiry });
  if (result.counts) await publishCounts({ db, events }, businessId, result.counts);
}

export async function markSeen({ db, events, actor }: Ctx, id: string, seen = true): Promise<EnquiryRow> {
  const a = requireBusiness(actor);
  const { e, c } = await loadEnquiry(db, a, id);
  if (e.seen === seen) return toEnquiryRow(e, c);
  const [updated] = await db.update(enquiries).set({ seen }).where(eq(enquiries.id, e.id)).returning();
  const row = toEnquiryRow(updated!, c);
  events.emit('enquiry.updated', { business_id: a.business_id, enquiry: row });
  return row;
}
