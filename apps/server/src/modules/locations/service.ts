import { type DbOrTx, enquiries, locations } from '@switchboard/db';
import {
  type CreateLocationRequest,
  hoursOf,
  isUuid,
  type Location,
  type Page,
  type PageOf,
  type UpdateLocationRequest,
} from '@switchboard/shared';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { DbActor } from '../../context.ts';
import { AppError, notFound } from '../../errors.ts';
import { recordAudit } from '../../lib/audit.ts';
import {
  atTheirLocations,
  type BusinessActor,
  requireBusiness,
  requireOwner,
  worksAt,
} from '../../plugins/auth.ts';
import { snoozedOpen, withoutSnoozed } from '../enquiries/counters.ts';

type LocationRow = typeof locations.$inferSelect;

export type LocationInput = z.output<typeof CreateLocationRequest>;
export type LocationPatch = z.output<typeof UpdateLocationRequest>;
export type LocationJson = z.output<typeof Location>;

const MANAGE = 'manage locations';

export function toLocationJson(l: LocationRow): LocationJson {
  return {
    id: l.id,
    business_id: l.business_id,
    name: l.name,
    address: l.address,
    precedence: l.precedence,
    timezone: l.timezone,
    phone_number: l.phone_number,
    email_address: l.email_address,
    google_place_id: l.google_place_id,
    review_message: l.review_message,
    review_link: l.review_link,
    ...hoursOf(l),
    holidays: l.holidays,
    missed_call_text: l.missed_call_text,
    card_surcharge: { enabled: l.card_surcharge_enabled, rate_bps: l.card_surcharge_bps },
    assigned_count_open: l.assigned_count_open,
    assigned_count_closed: l.assigned_count_closed,
    unassigned_count_open: l.unassigned_count_open,
    unassigned_count_closed: l.unassigned_count_closed,
    created_at: l.created_at,
    updated_at: l.updated_at,
  };
}

/**
 * Whose location may be found: a business's (for jobs and webhooks), or the person acting, who also finds only
 * the locations they work at.
 */
export type LocationScope = string | BusinessActor;

/**
 * The business's location with this id; another business's id, no uuid at all, or a location the acting staff
 * member does not work at, is 'Location not found.'
 */
export async function findLocation(db: DbOrTx, scope: LocationScope, id: string): Promise<LocationRow> {
  if (!isUuid(id)) throw notFound('Location');
  if (typeof scope !== 'string' && !worksAt(scope, id)) throw notFound('Location');
  const businessId = typeof scope === 'string' ? scope : scope.business_id;
  const [row] = await db
    .select()
    .from(locations)
    .where(and(eq(locations.id, id), eq(locations.business_id, businessId)));
  if (!row) throw notFound('Location');
  return row;
}

/** A location named in a request must be one of the business's own (or none): else 404 'Location not found.' */
export async function assertOwnLocation(
  db: DbOrTx,
  scope: LocationScope,
  locationId: string | null | undefined,
): Promise<void> {
  if (locationId) await findLocation(db, scope, locationId);
}

/** In the order the app lists them: precedence, then the oldest first. */
export async function listLocations({ db, actor }: DbActor, page: Page): Promise<PageOf<LocationJson>> {
  const a = requireBusiness(actor);
  const mine = and(eq(locations.business_id, a.business_id), atTheirLocations(a, locations.id));
  const rows = await db
    .select()
    .from(locations)
    .where(mine)
    .orderBy(asc(locations.precedence), asc(locations.created_at), asc(locations.id))
    .limit(page.page_size)
    .offset((page.page - 1) * page.page_size);
  const [count] = await db.select({ n: sql<number>`count(*)::int` }).from(locations).where(mine);
  // Counted as the Open list counts: enquiries asleep now are under Snoozed, not Open.
  const snoozed = await snoozedOpen(
    db,
    rows.map((l) => l.id),
  );
  return {
    items: rows.map((l) => toLocationJson(withoutSnoozed(l, snoozed.get(l.id)))),
    page: page.page,
    page_size: page.page_size,
    total: count?.n ?? 0,
  };
}

export async function getLocation({ db, actor }: DbActor, id: string): Promise<LocationJson> {
  const l = await findLocation(db, requireBusiness(actor), id);
  return toLocationJson(withoutSnoozed(l, (await snoozedOpen(db, [l.id])).get(l.id)));
}

/** A new location goes after the others unless a precedence is given. */
export async function createLocation({ db, actor }: DbActor, input: LocationInput): Promise<LocationJson> {
  const a = requireOwner(actor, MANAGE);
  return db.transaction(async (tx) => {
    let precedence = input.precedence;
    if (precedence === undefined) {
      const [last] = await tx
        .select({ max: sql<number | null>`max(${locations.precedence})` })
        .from(locations)
        .where(eq(locations.business_id, a.business_id));
      precedence = last?.max === null || last?.max === undefined ? 0 : Number(last.max) + 1;
    }
    const [row] = await tx
      .insert(locations)
      .values({ ...input, precedence, business_id: a.business_id })
      .returning();
    await recordAudit(tx, a, 'location.create', { target: row!.id, detail: { ...input, precedence } });
    return toLocationJson(row!);
  });
}

export async function updateLocation(
  { db, actor }: DbActor,
  id: string,
  patch: LocationPatch,
): Promise<LocationJson> {
  const a = requireOwner(actor, MANAGE);
  return db.transaction(async (tx) => {
    const current = await findLocation(tx, a, id);
    if (Object.keys(patch).length === 0) return toLocationJson(current);
    const [row] = await tx
      .update(locations)
      .set(patch)
      .where(and(eq(locations.id, current.id), eq(locations.business_id, a.business_id)))
      .returning();
    await recordAudit(tx, a, 'location.update', { target: current.id, detail: patch });
    return toLocationJson(row!);
  });
}

/**
 * Deletes a location that holds no enquiries, never the business's last one. Every location of the business
 * is locked first, so two deletes cannot both see "another location remains", and an enquiry being
 * created for this location either commits before the check (and is seen) or fails after the delete.
 */
export async function deleteLocation(
  { db, actor }: DbActor,
  id: string,
): Promise<{ id: string; deleted: true }> {
  const a = requireOwner(actor, MANAGE);
  if (!isUuid(id)) throw notFound('Location');
  return db.transaction(async (tx) => {
    const all = await tx
      .select({ id: locations.id })
      .from(locations)
      .where(eq(locations.business_id, a.business_id))
      .for('update');
    if (!all.some((l) => l.id === id)) throw notFound('Location');
    if (all.length <= 1) throw new AppError('conflict', 'A business needs at least one location.');
    const [enquiry] = await tx
      .select({ id: enquiries.id })
      .from(enquiries)
      .where(and(eq(enquiries.business_id, a.business_id), eq(enquiries.location_id, id)))
      .limit(1);
    if (enquiry) {
      throw new AppError(
        'conflict',
        'This location still has enquiries, so it cannot be deleted: its conversations with customers would be lost.',
      );
    }
    await tx.delete(locations).where(and(eq(locations.id, id), eq(locations.business_id, a.business_id)));
    await recordAudit(tx, a, 'location.delete', { target: id });
    return { id, deleted: true as const };
  });
}
