import { businesses, businessMembers, type DbOrTx, locationMembers, users } from '@switchboard/db';
import { asc, eq, sql } from 'drizzle-orm';
import type { Role } from '../../plugins/auth.ts';

export type OpenableBusiness = {
  business: typeof businesses.$inferSelect;
  role: Role | null;
  /** The locations a staff member is limited to (in no order); null when they work at every location. */
  location_ids: string[] | null;
};

/**
 * The businesses a user may open: those they are a member of (in the order they joined), and for a
 * Switchboard administrator every other business after them by name, with no role — the administrator
 * helps a business without becoming one of its teammates.
 */
export async function openableBusinesses(db: DbOrTx, userId: string): Promise<OpenableBusiness[]> {
  const [user] = await db.select({ super_admin: users.super_admin }).from(users).where(eq(users.id, userId));
  if (!user) return [];
  const rows = await db
    .select({
      business: businesses,
      role: businessMembers.role,
      all_locations: businessMembers.all_locations,
    })
    .from(businessMembers)
    .innerJoin(businesses, eq(businesses.id, businessMembers.business_id))
    .where(eq(businessMembers.user_id, userId))
    .orderBy(asc(businessMembers.created_at), asc(businesses.name));
  const limited = rows.some(
    (r) => r.role === 'staff' && !r.all_locations && r.business.owner_user_id !== userId,
  );
  const theirs =
    limited && !user.super_admin
      ? await db
          .select({ business_id: locationMembers.business_id, location_id: locationMembers.location_id })
          .from(locationMembers)
          .where(eq(locationMembers.user_id, userId))
      : [];
  const memberships = rows.map(({ business, role, all_locations }) => ({
    business,
    role,
    location_ids:
      role === 'staff' && !all_locations && business.owner_user_id !== userId && !user.super_admin
        ? theirs.filter((t) => t.business_id === business.id).map((t) => t.location_id)
        : null,
  }));
  if (!user.super_admin) return memberships;
  const others = await db
    .select()
    .from(businesses)
    .where(
      sql`not exists (select 1 from ${businessMembers} bm where bm.business_id = ${businesses.id} and bm.user_id = ${userId})`,
    )
    .orderBy(asc(businesses.name), asc(businesses.created_at));
  return [...memberships, ...others.map((business) => ({ business, role: null, location_ids: null }))];
}
