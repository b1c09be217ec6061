import { ANALYTICS_DEFAULT_DAYS, ANALYTICS_TIMEZONE } from '../constants.ts';
import {
  addDays,
  calendarDayIn,
  type DateInput,
  daysBetween,
  endOfDayIn,
  formatInZone,
  startOfDayIn,
} from './zoned-day.ts';

export type DateBounds = { from: Date; to: Date };

export type AnalyticsRange = {
  dateRange: [string, string];
  timezone: string;
  /** Calendar days from the first day to the last: 0 for a one-day range. */
  dayDiff: number;
};

/**
 * "From the start of the start day to the end of the end day, or to now when the range is one day."
 * Dates are 'YYYY-MM-DD' days or ISO timestamps; a timestamp counts as the day it falls on in
 * `timezone`. As the spec says, a one-day range runs to now even when that day is in the past.
 */
export function dateRangeBounds(
  startDate: DateInput,
  endDate: DateInput,
  timezone: string,
  now: Date = new Date(),
): DateBounds {
  const startDay = calendarDayIn(startDate, timezone);
  const endDay = calendarDayIn(endDate, timezone);
  if (startDay > endDay) throw new RangeError(`Date range starts (${startDay}) after it ends (${endDay})`);
  const from = startOfDayIn(startDay, timezone);
  return { from, to: startDay === endDay ? now : endOfDayIn(endDay, timezone) };
}

/** The last 7 days, today included, in Australia/Melbourne, as ISO timestamps with the Melbourne offset. */
export function defaultAnalyticsRange(now: Date = new Date()): AnalyticsRange {
  const today = calendarDayIn(now, ANALYTICS_TIMEZONE);
  const firstDay = addDays(today, 1 - ANALYTICS_DEFAULT_DAYS);
  return {
    dateRange: [
      formatInZone(startOfDayIn(firstDay, ANALYTICS_TIMEZONE), ANALYTICS_TIMEZONE),
      formatInZone(endOfDayIn(today, ANALYTICS_TIMEZONE), ANALYTICS_TIMEZONE),
    ],
    timezone: ANALYTICS_TIMEZONE,
    dayDiff: daysBetween(firstDay, today),
  };
}
