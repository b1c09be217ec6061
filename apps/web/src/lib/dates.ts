import { businessLocale } from './locale.ts';

/** A calendar day with no time ('2026-12-12', a due date): read as that day wherever the viewer is. */
const CALENDAR_DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A day for reading, in the business's locale: '3 March 2027', or with `short` months '3 Mar 2027' (in the
 * US, 'Mar 3, 2027'). The one way the product writes a date, whether it comes as a timestamp or a calendar day.
 */
export function dayText(value: string | Date, month: 'long' | 'short' = 'long'): string {
  const calendarDay = typeof value === 'string' && CALENDAR_DAY.test(value);
  const date = calendarDay ? new Date(`${value}T12:00:00Z`) : new Date(value);
  return new Intl.DateTimeFormat(businessLocale(), {
    day: 'numeric',
    month,
    year: 'numeric',
    ...(calendarDay ? { timeZone: 'UTC' } : {}),
  }).format(date);
}

/** A moment with its day and time, in the business's locale: '28 Nov 2026, 2:05 pm'. */
export function momentText(value: string | Date): string {
  return new Intl.DateTimeFormat(businessLocale(), { dateStyle: 'medium', timeStyle: 'short' }).format(
    new Date(value),
  );
}
