import { type DbOrTx, locations } from '@switchboard/db';
import {
  ANALYTICS_DEFAULT_DAYS,
  ANALYTICS_MAX_DAYS,
  ANALYTICS_TIMEZONE,
  type AnalyticsQuery,
  addDays,
  type BucketUnit,
  calendarDayIn,
  dateRangeBounds,
  formatInZone,
  isUuid,
  MS_PER_DAY,
} from '@switchboard/shared';
import { and, asc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import { AppError, notFound } from '../../errors.ts';
import { atTheirLocations, type BusinessActor } from '../../plugins/auth.ts';

type Query = z.output<typeof AnalyticsQuery>;

/** What a report covers: the period, the one before it, the time zone, the series' buckets, the locations. */
export type ReportScope = {
  business_id: string;
  from: Date;
  to: Date;
  previousFrom: Date;
  timezone: string;
  bucket: BucketUnit;
  locations: { id: string; name: string | null }[];
  /**
   * Every location, not a choice of them: records whose location was deleted since (invoices, review requests
   * keep theirs as none) count too.
   */
  everywhere: boolean;
};

const badFilter = (message: string) => new AppError('bad_request', message);

/**
 * Reads a report's filter (spec §4's date range, in the chosen time zone, default the last 7 days) and checks
 * it: a period that ends before it starts, or is longer than a year, is refused, and every location named must
 * be one the person works at (else 404 as for another business's).
 */
export async function reportScope(
  db: DbOrTx,
  a: BusinessActor,
  query: Query,
  now = new Date(),
): Promise<ReportScope> {
  const timezone = query.timezone ?? ANALYTICS_TIMEZONE;
  const today = calendarDayIn(now, timezone);
  let bounds: { from: Date; to: Date };
  try {
    bounds =
      query.start || query.end
        ? dateRangeBounds(query.start ?? query.end!, query.end ?? query.start!, timezone, now)
        : dateRangeBounds(addDays(today, 1 - ANALYTICS_DEFAULT_DAYS), today, timezone, now);
  } catch (error) {
    if (error instanceof RangeError)
      throw badFilter(`${error.message}: choose a start on or before the end.`);
    throw error;
  }
  const days = (bounds.to.getTime() - bounds.from.getTime()) / MS_PER_DAY;
  if (days > ANALYTICS_MAX_DAYS)
    throw badFilter(
      `Choose a period of at most ${ANALYTICS_MAX_DAYS} days; this one has ${Math.ceil(days)}.`,
    );
  const theirs = await db
    .select({ id: locations.id, name: locations.name })
    .from(locations)
    .where(and(eq(locations.business_id, a.business_id), atTheirLocations(a, locations.id)))
    .orderBy(asc(locations.precedence), asc(locations.created_at));
  let chosen = theirs;
  if (query.locationIds?.length) {
    const wanted = [...new Set(query.locationIds)];
    if (!wanted.every((id) => isUuid(id) && theirs.some((l) => l.id === id))) throw notFound('Location');
    chosen = theirs.filter((l) => wanted.includes(l.id));
  }
  return {
    business_id: a.business_id,
    from: bounds.from,
    to: bounds.to,
    // As long as this period (its last millisecond counted as a whole second), just before it.
    previousFrom: new Date(
      bounds.from.getTime() - Math.ceil((bounds.to.getTime() - bounds.from.getTime()) / 1000) * 1000,
    ),
    timezone,
    bucket: query.bucket ?? (days <= 31 ? 'day' : days <= 120 ? 'week' : 'month'),
    locations: chosen,
    everywhere: !query.locationIds?.length && a.location_ids === null,
  };
}

/** The scope as every report answers it. */
export function rangeOf(scope: ReportScope) {
  return {
    start: formatInZone(scope.from, scope.timezone),
    end: formatInZone(scope.to, scope.timezone),
    timezone: scope.timezone,
    bucket: scope.bucket,
    previous: {
      start: formatInZone(scope.previousFrom, scope.timezone),
      end: formatInZone(scope.from, scope.timezone),
    },
    location_ids: scope.locations.map((l) => l.id),
  };
}
