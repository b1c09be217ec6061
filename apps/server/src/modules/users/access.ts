import { businesses, businessMembers, type DbOrTx, users } from '@switchboard/db';
import { asc, eq, sql } from 'drizzle-orm';
import type { Role } from '../../plugins/auth.ts';

export type OpenableBusiness = { business: typeof businesses.$inferSelect; role: Role | null };

/**
 * The businesses a user may open: those they are a member of (in the order they joined), and for a
 * Switchboard administrator every other business after them by name, with no role — the administrator
 * helps a business without becoming one of its teammates.
 */
export async function openableBusinesses(db: DbOrTx, userId: string): Promise<OpenableBusiness[]> {
  const [user] = await db.select({ super_admin: users.super_admin }).from(users).where(eq(users.id, userId));
  if (!user) return [];
  const memberships = await db
    .select({ business: businesses, role: businessMembers.role })
    .from(businessMembers)
    .innerJoin(businesses, eq(businesses.id, businessMembers.business_id))
    .where(eq(businessMembers.user_id, userId))
    .orderBy(asc(businessMembers.created_at), asc(businesses.name));
  if (!user.super_admin) return memberships;
  const others = await db
    .select()
    .from(businesses)
    .where(
      sql`not exists (select 1 from ${businessMembers} bm where bm.business_id = ${businesses.id} and bm.user_id = ${userId})`,
    )
    .orderBy(asc(businesses.name), asc(businesses.created_at));
  return [...memberships, ...others.map((business) => ({ business, role: null }))];
}
