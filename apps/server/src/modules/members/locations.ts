import { businesses, businessMembers, type DbOrTx, locationMembers, locations } from '@switchboard/db';
import { isUuid, type MemberLocationsRequest } from '@switchboard/shared';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { z } from 'zod';
import type { Context } from '../../context.ts';
import { AppError, notFound } from '../../errors.ts';
import { recordAudit } from '../../lib/audit.ts';
import { requireOwner } from '../../plugins/auth.ts';

/**
 * The business's locations with these ids, by precedence; an id that is not one of them is 404 'Location not
 * found.' (null: every location, and none are named).
 */
export async function namedLocations(
  db: DbOrTx,
  businessId: string,
  ids: string[] | null | undefined,
): Promise<{ id: string; name: string | null }[] | null> {
  if (!ids) return null;
  const unique = [...new Set(ids)];
  if (!unique.every(isUuid)) throw notFound('Location');
  const rows = await db
    .select({ id: locations.id, name: locations.name })
    .from(locations)
    .where(and(eq(locations.business_id, businessId), inArray(locations.id, unique)))
    .orderBy(asc(locations.precedence), asc(locations.created_at));
  if (rows.length !== unique.length) throw notFound('Location');
  return rows;
}

/**
 * Gives a member of the business the locations they work at: null for all of them (and any added later), else
 * exactly these (already checked to be the business's).
 */
export async function grantLocations(
  tx: DbOrTx,
  businessId: string,
  userId: string,
  locationIds: string[] | null,
): Promise<void> {
  await tx
    .update(businessMembers)
    .set({ all_locations: locationIds === null })
    .where(and(eq(businessMembers.business_id, businessId), eq(businessMembers.user_id, userId)));
  await tx
    .delete(locationMembers)
    .where(and(eq(locationMembers.business_id, businessId), eq(locationMembers.user_id, userId)));
  if (locationIds?.length) {
    await tx
      .insert(locationMembers)
      .values(locationIds.map((location_id) => ({ business_id: businessId, location_id, user_id: userId })));
  }
}

/**
 * `PUT /business/members/{userId}/locations` (owners): the locations a team member works at. They see only
 * those locations' enquiries, calls and settings from their next request; their open screens are told at once.
 */
export async function setMemberLocations(
  ctx: Pick<Context, 'db' | 'actor' | 'events'>,
  userId: string,
  input: z.output<typeof MemberLocationsRequest>,
) {
  const a = requireOwner(ctx.actor, 'choose where people work');
  if (!isUuid(userId)) throw notFound('Team member');
  await ctx.db.transaction(async (tx) => {
    const [member] = await tx
      .select({ role: businessMembers.role, owner_user_id: businesses.owner_user_id })
      .from(businessMembers)
      .innerJoin(businesses, eq(businesses.id, businessMembers.business_id))
      .where(and(eq(businessMembers.business_id, a.business_id), eq(businessMembers.user_id, userId)))
      .for('update', { of: businessMembers });
    if (!member) throw notFound('Team member');
    if (member.role === 'owner' || member.owner_user_id === userId) {
      throw new AppError('unprocessable', 'Owners work at every location.');
    }
    const named = await namedLocations(tx, a.business_id, input.location_ids);
    await grantLocations(tx, a.business_id, userId, named ? named.map((l) => l.id) : null);
    await recordAudit(tx, a, 'member.locations', {
      target: userId,
      detail: { location_ids: named ? named.map((l) => l.id) : 'all' },
    });
  });
  ctx.events.emit('member.access_changed', { business_id: a.business_id, user_id: userId });
}
