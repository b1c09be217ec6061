import { customers, enquiries } from '@switchboard/db';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import { atTheirLocations, type BusinessActor } from '../../plugins/auth.ts';

/**
 * Whose customers may be read: a business's (jobs and webhooks, which act for nobody), or the person acting. A
 * customer is a record of the business, seen by a staff member limited to some locations where the customer has
 * an enquiry at one of theirs.
 */
export type CustomerScope = string | BusinessActor;

/** The one condition every query of customers for a person or a business goes through. */
export function customersTheySee(scope: CustomerScope): SQL {
  if (typeof scope === 'string') return eq(customers.business_id, scope);
  const atTheirs = atTheirLocations(scope, enquiries.location_id);
  const business = eq(customers.business_id, scope.business_id);
  if (!atTheirs) return business;
  return and(
    business,
    sql`exists (select 1 from ${enquiries} where ${enquiries.customer_id} = ${customers.id} and ${atTheirs})`,
  )!;
}
