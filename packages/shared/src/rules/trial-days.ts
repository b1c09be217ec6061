import { TRIAL_OFFSET_HOURS, TRIAL_TIMEZONE } from '../constants.ts';
import { calendarDayIn, type DateInput, MS_PER_DAY, startOfDayIn, toInstant } from './zoned-day.ts';

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
