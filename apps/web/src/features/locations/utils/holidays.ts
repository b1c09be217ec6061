import { HOLIDAYS_MAX, type Holiday } from '@switchboard/shared';
import dayjs from 'dayjs';

/** The rows at fault: no date yet, or a date listed again (each repeat after the first). */
export function holidayRowsAtFault(holidays: Holiday[]): Set<number> {
  const seen = new Set<string>();
  const fault = new Set<number>();
  holidays.forEach((h, i) => {
    if (!h.date || seen.has(h.date)) fault.add(i);
    seen.add(h.date);
  });
  return fault;
}

/** The first thing wrong with the list, said the way the server would refuse it; null when all is right. */
export function holidaysProblem(holidays: Holiday[]): string | null {
  if (holidays.length > HOLIDAYS_MAX) return `A location can keep at most ${HOLIDAYS_MAX} holidays.`;
  const seen = new Set<string>();
  for (const h of holidays) {
    if (!h.date) return 'Pick a date for each holiday, or remove it.';
    if (seen.has(h.date)) return `${dayjs(h.date).format('D MMM YYYY')} is listed twice.`;
    seen.add(h.date);
  }
  return null;
}

/** The list as saved: named ones trimmed, blank names none, in date order. */
export function holidaysToSave(holidays: Holiday[]): Holiday[] {
  return holidays
    .map((h) => ({ date: h.date, name: h.name?.trim() ? h.name.trim() : null }))
    .sort((a, b) => a.date.localeCompare(b.date));
}
