import dayjs, { type Dayjs } from 'dayjs';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';

dayjs.extend(utc);
dayjs.extend(timezone);

export type DateInput = Date | string | number;

/** A calendar day written 'YYYY-MM-DD', with no time zone attached. */
export type CalendarDay = string;

// An offset only counts after a time, or the '-09' of '2024-03-09' would read as one.
const HAS_OFFSET = /[T ]\d.*(?:Z|[+-]\d{2}(?::?\d{2})?)$/i;
export const MS_PER_DAY = 86_400_000;

function assertValid(value: Dayjs, input: DateInput): Dayjs {
  if (!value.isValid()) throw new RangeError(`Not a valid date: ${String(input)}`);
  return value;
}

/** An instant. Timestamps without an offset are read as UTC, which is how the server stores them. */
export function toInstant(input: DateInput): Dayjs {
  if (typeof input === 'string' && !HAS_OFFSET.test(input)) return assertValid(dayjs.utc(input), input);
  return assertValid(dayjs(input), input);
}

/**
 * The day `input` falls on in `timeZone`. A string without an offset ('2024-05-01' or
 * '2024-05-01T09:00') already names a wall-clock day, so it is taken as written.
 */
export function calendarDayIn(input: DateInput, timeZone: string): CalendarDay {
  if (typeof input === 'string' && !HAS_OFFSET.test(input)) {
    return assertValid(dayjs.utc(input), input).format('YYYY-MM-DD');
  }
  return assertValid(dayjs(input), input).tz(timeZone).format('YYYY-MM-DD');
}

// dayjs' own startOf('day') in a zone is off by an hour on daylight-saving days, so midnight is
// parsed from the day's string instead, which the timezone plugin resolves correctly.
export function startOfDayIn(day: CalendarDay, timeZone: string): Date {
  return dayjs.tz(day, timeZone).toDate();
}

export function endOfDayIn(day: CalendarDay, timeZone: string): Date {
  return new Date(startOfDayIn(addDays(day, 1), timeZone).getTime() - 1);
}

export function addDays(day: CalendarDay, days: number): CalendarDay {
  return dayjs.utc(day).add(days, 'day').format('YYYY-MM-DD');
}

export function daysBetween(from: CalendarDay, to: CalendarDay): number {
  return Math.round((dayjs.utc(to).valueOf() - dayjs.utc(from).valueOf()) / MS_PER_DAY);
}

/** 0 for Sunday through 6 for Saturday. */
export function weekdayOf(day: CalendarDay): number {
  return dayjs.utc(day).day();
}

export function formatInZone(date: Date, timeZone: string): string {
  return dayjs(date).tz(timeZone).format('YYYY-MM-DDTHH:mm:ss.SSSZ');
}
