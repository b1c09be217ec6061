import { TRIAL_OFFSET_HOURS, TRIAL_TIMEZONE } from '../constants.ts';
import { addDays, calendarDayIn, type DateInput, MS_PER_DAY, startOfDayIn, toInstant } from './zoned-day.ts';

/**
 * Whole days from the start of today in Australia/Melbourne to the trial end date plus 11 hours.
 *
 * "Whole days" is the floor of the elapsed time in days, so the trial's last day reads 0 and the day
 * after reads -1 (truncating would keep showing 0 for a day after expiry). A trial end date without an
 * offset is read as UTC. Throws RangeError when the date cannot be read.
 */
export function trialRemainingDays(trialEndDate: DateInput, now: Date = new Date()): number {
  const trialEnd = toInstant(trialEndDate).add(TRIAL_OFFSET_HOURS, 'hour');
  const startOfToday = startOfDayIn(calendarDayIn(now, TRIAL_TIMEZONE), TRIAL_TIMEZONE);
  return Math.floor((trialEnd.valueOf() - startOfToday.getTime()) / MS_PER_DAY);
}

/**
 * When a trial of `days` days started at `start` ends, such that the formula above reads `days` all through
 * the sign-up day (whatever its hour), one less each day after, 0 ("ends today") on the day after the last
 * full day, and below 0 once that day is over. The end sits at 01:00 (Melbourne) of that last day: with the
 * 11-hour offset that is midday, so an hour gained or lost to daylight saving on the way never tips a floor.
 */
export function trialEndDate(start: Date, days: number): Date {
  const lastDay = addDays(calendarDayIn(start, TRIAL_TIMEZONE), days);
  return new Date(startOfDayIn(lastDay, TRIAL_TIMEZONE).getTime() + (12 - TRIAL_OFFSET_HOURS) * 3_600_000);
}
