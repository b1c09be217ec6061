import { addDays, calendarDayIn, weekdayOf } from './zoned-day.ts';

export const TEMPLATE_PLACEHOLDERS = [
  'first_name',
  'business_name',
  'business_day',
  'location_name',
] as const;
export type TemplatePlaceholder = (typeof TEMPLATE_PLACEHOLDERS)[number];
export type TemplateValues = Partial<Record<TemplatePlaceholder, string | null>>;

const NAMES = TEMPLATE_PLACEHOLDERS.join('|');
const PLACEHOLDER = new RegExp(`\\{\\{(${NAMES})\\}\\}|\\{(${NAMES})\\}`, 'g');

/**
 * Replaces `{first_name}` (or `{{first_name}}`) and the other template placeholders in one pass, so a
 * value that itself contains a placeholder is left as written. A missing value becomes '' rather than
 * leaking '{first_name}' to a customer; unknown placeholders are not ours and stay untouched.
 */
export function renderTemplate(template: string, values: TemplateValues): string {
  return template.replace(PLACEHOLDER, (_match, doubled: string | undefined, single: string | undefined) => {
    const name = (doubled ?? single) as TemplatePlaceholder;
    return values[name] ?? '';
  });
}

/**
 * The `{name}` (or `{{name}}`) placeholders in a template that are not ours, in order of first use: a
 * template naming one is refused when saved, since it would reach customers as written.
 */
export function unknownPlaceholders(template: string): string[] {
  const known = new Set<string>(TEMPLATE_PLACEHOLDERS);
  const found: string[] = [];
  for (const match of template.matchAll(/\{\{?\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}?\}/g)) {
    const name = match[1] ?? '';
    if (!known.has(name) && !found.includes(name)) found.push(name);
  }
  return found;
}

export type TemplatePart = { text: string; placeholder: TemplatePlaceholder | null };

/**
 * A template cut into plain text and the placeholders `renderTemplate` would fill, in order, so a screen
 * can show which parts change per customer. Joining the parts' text gives the template back.
 */
export function templateParts(template: string): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let last = 0;
  for (const match of template.matchAll(PLACEHOLDER)) {
    if (match.index > last) parts.push({ text: template.slice(last, match.index), placeholder: null });
    parts.push({ text: match[0], placeholder: (match[1] ?? match[2]) as TemplatePlaceholder });
    last = match.index + match[0].length;
  }
  if (last < template.length) parts.push({ text: template.slice(last), placeholder: null });
  return parts;
}

export const WEEKDAY_NAMES = [
  'Sunday',
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
] as const;
export type WeekdayName = (typeof WEEKDAY_NAMES)[number];

const SATURDAY = 6;
const SUNDAY = 0;

/**
 * The next Monday–Friday after today in `timezone` that is not one of the location's `holidays` ('YYYY-MM-DD'
 * there), e.g. 'Monday' on a Friday, 'Tuesday' on a Friday before a holiday Monday.
 */
export function nextBusinessDay(now: Date, timezone: string, holidays: readonly string[] = []): WeekdayName {
  const closed = new Set(holidays);
  let day = addDays(calendarDayIn(now, timezone), 1);
  // A run of holidays longer than a year is not a business; stop looking there.
  for (let i = 0; i < 400; i++) {
    if (weekdayOf(day) !== SATURDAY && weekdayOf(day) !== SUNDAY && !closed.has(day)) break;
    day = addDays(day, 1);
  }
  return WEEKDAY_NAMES[weekdayOf(day)] ?? 'Monday';
}
