import dayjs from 'dayjs';
import { calendarDayIn, startOfDayIn } from './zoned-day.ts';

/** Messages the business sends by itself (reminders) go between these hours, local time: never before 9:00 or from 20:00. */
export const SENDING_HOURS = { from: 9, until: 20 } as const;

/**
 * The first moment at or after `at` inside the sending hours in `timeZone`: `at` itself when it is inside,
 * else 9:00 that morning (before 9) or the next morning (from 20:00).
 */
export function nextSendingTime(at: Date, timeZone: string): Date {
  const day = calendarDayIn(at, timeZone);
  const local = dayjs(at).tz(timeZone);
  const hour = local.hour();
  if (hour >= SENDING_HOURS.from && hour < SENDING_HOURS.until) return at;
  const morningOf = hour < SENDING_HOURS.from ? day : dayjs.utc(day).add(1, 'day').format('YYYY-MM-DD');
  return dayjs(startOfDayIn(morningOf, timeZone)).tz(timeZone).hour(SENDING_HOURS.from).toDate();
}

export function isSendingTime(at: Date, timeZone: string): boolean {
  return nextSendingTime(at, timeZone).getTime() === at.getTime();
}
