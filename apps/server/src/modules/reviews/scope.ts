import { reviewRequests } from '@switchboard/db';
import { and, eq, type SQL } from 'drizzle-orm';
import { atTheirLocations, type BusinessActor } from '../../plugins/auth.ts';

/**
 * The one condition every query of review requests for a person goes through: the business's, at the locations
 * they work at (a request whose location was deleted: only those who work at every location).
 */
export function reviewRequestsTheySee(a: BusinessActor): SQL {
  return and(eq(reviewRequests.business_id, a.business_id), atTheirLocations(a, reviewRequests.location_id))!;
}
