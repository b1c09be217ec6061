import dayjs from 'dayjs';
import { minutesOf, type OpeningHours, type OpenPeriod, WEEKDAYS } from './opening-hours.ts';
import { addDays, type CalendarDay, calendarDayIn, MS_PER_DAY, weekdayOf } from './zoned-day.ts';

/** How reports group time: by calendar day, by week (Monday to Sunday) or by calendar month. */
export type BucketUnit = 'day' | 'week' | 'month';

const MS_PER_MINUTE = 60_000;
const MINUTES_PER_DAY = 1440;
const WHOLE_DAY: OpenPeriod = { open: '00:00', close: '24:00' };
const CALENDAR_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A stretch of time the location is open, as epoch milliseconds, end excluded. */
type Span = { start: number; end: number };

function assertCalendarDay(day: string): CalendarDay {
  if (!CALENDAR_DAY.test(day) || dayjs.utc(day).format('YYYY-MM-DD') !== day) {
    throw new RangeError(`Not a calendar day: ${day}`);
  }
  return day;
}

/** One offset formatter per zone, kept: building one is the slow part of reading an offset. */
const offsetFormats = new Map<string, Intl.DateTimeFormat>();

/** The zone's offset from UTC at an instant, in milliseconds. */
function offsetAt(ms: number, timeZone: string): number {
  let format = offsetFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' });
    offsetFormats.set(timeZone, format);
  }
  const name = format.formatToParts(ms).find((part) => part.type === 'timeZoneName')?.value ?? '';
  // 'GMT+10:00', 'GMT-03:30', 'GMT' for UTC itself, and seconds too for old local mean times.
  const match = /^GMT(?:([+-])(\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(name);
  if (!match) throw new RangeError(`Cannot read the offset '${name}' of ${timeZone}`);
  const [, sign, hours = '0', minutes = '0', seconds = '0'] = match;
  const offset = (Number(hours) * 3600 + Number(minutes) * 60 + Number(seconds)) * 1000;
  return sign === '-' ? -offset : offset;
}

/**
 * Every instant at which the location's clock shows `minutes` past the midnight starting `day`:
 * usually one, none when the clocks skip that time, two when they show it twice.
 */
function instantsShowing(day: CalendarDay, minutes: number, timeZone: string): number[] {
  const clockMs = dayjs.utc(day).valueOf() + minutes * MS_PER_MINUTE;
  // The offsets in force a day either side are the only ones a daylight-saving change near this time can use.
  const offsets = new Set([
    offsetAt(clockMs - MS_PER_DAY, timeZone),
    offsetAt(clockMs + MS_PER_DAY, timeZone),
  ]);
  return [...offsets]
    .map((offset) => clockMs - offset)
    .filter((ms) => offsetAt(ms, timeZone) === clockMs - ms);
}

/**
 * The first moment the location's clock shows `minutes` past the midnight starting `day` (1440 is the next
 * midnight). A time shown twice when the clocks go back counts from its first showing; a time skipped when
 * they go forward counts from the jump, because from then on the clock reads later than it.
 */
function clockTime(day: CalendarDay, minutes: number, timeZone: string): number {
  // The first minute the clock does show at or after `minutes` starts at the jump past any skipped ones.
  for (let minute = minutes; minute < minutes + MINUTES_PER_DAY; minute++) {
    const instants = instantsShowing(day, minute, timeZone);
    if (instants.length > 0) return Math.min(...instants);
  }
  throw new RangeError(`The clock in ${timeZone} never shows minute ${minutes} of ${day}`);
}

/** The periods of `day`'s weekday; one whole-day period without hours. */
function periodsOn(day: CalendarDay, hours: OpeningHours | null): readonly OpenPeriod[] {
  if (!hours) return [WHOLE_DAY];
  const weekday = WEEKDAYS[weekdayOf(day)];
  // Stored hours are cast, not checked, so a day missing from them reads as closed.
  return weekday ? (hours[weekday] ?? []) : [];
}

/**
 * When the location is open on `day`, as instants in order: nothing on a holiday or a day without periods,
 * the whole day without hours. Overlapping periods count once.
 */
function openSpans(
  day: CalendarDay,
  hours: OpeningHours | null,
  timeZone: string,
  holidays: ReadonlySet<CalendarDay>,
): Span[] {
  if (holidays.has(day)) return [];
  const sorted = [...periodsOn(day, hours)].sort((a, b) => minutesOf(a.open) - minutesOf(b.open));
  const spans: Span[] = [];
  let openUntil = Number.NEGATIVE_INFINITY;
  for (const period of sorted) {
    const start = Math.max(clockTime(day, minutesOf(period.open), timeZone), openUntil);
    const end = clockTime(day, minutesOf(period.close), timeZone);
    if (end <= start) continue;
    spans.push({ start, end });
    openUntil = end;
  }
  return spans;
}

/**
 * How many seconds of [from, to) the location is open, by its hours in its time zone, so response times
 * can leave out nights and weekends. Real elapsed time: a period over a daylight-saving change is an hour
 * longer or shorter than its wall-clock times say. A period ending '24:00' and the next day's starting
 * '00:00' run on without a break.
 *
 * Without hours (always open) every second counts, except on holidays: a holiday is a day off whatever the
 * usual week looks like, so it is closed all day (midnight to midnight in the location's zone) either way.
 * Fractional when the instants carry milliseconds; 0 when `to` is not after `from`.
 */
export function businessSeconds(
  from: Date,
  to: Date,
  hours: OpeningHours | null,
  timeZone: string,
  holidays: readonly CalendarDay[] = [],
): number {
  if (to.getTime() <= from.getTime()) return 0;
  const closed = new Set(holidays);
  // `to` itself is excluded, so an interval ending at midnight does not reach into the next day.
  const lastDay = calendarDayIn(new Date(to.getTime() - 1), timeZone);
  let openMs = 0;
  for (let day = calendarDayIn(from, timeZone); day <= lastDay; day = addDays(day, 1)) {
    for (const span of openSpans(day, hours, timeZone, closed)) {
      openMs += Math.max(0, Math.min(span.end, to.getTime()) - Math.max(span.start, from.getTime()));
    }
  }
  return openMs / 1000;
}

/** How many seconds the location is open on a calendar day in its zone, by the same reckoning as `businessSeconds`. */
export function openSecondsIn(
  day: CalendarDay,
  hours: OpeningHours | null,
  timeZone: string,
  holidays: readonly CalendarDay[] = [],
): number {
  const spans = openSpans(assertCalendarDay(day), hours, timeZone, new Set(holidays));
  return spans.reduce((total, span) => total + span.end - span.start, 0) / 1000;
}

/** The first day of the bucket `day` falls in. */
function bucketOf(day: CalendarDay, unit: BucketUnit): CalendarDay {
  switch (unit) {
    case 'day':
      return day;
    case 'week':
      // weekdayOf counts from Sunday; weeks here start on Monday.
      return addDays(day, -((weekdayOf(day) + 6) % 7));
    case 'month':
      return `${day.slice(0, 7)}-01`;
  }
}

function nextBucket(bucket: CalendarDay, unit: BucketUnit): CalendarDay {
  switch (unit) {
    case 'day':
      return addDays(bucket, 1);
    case 'week':
      return addDays(bucket, 7);
    case 'month':
      return dayjs.utc(bucket).add(1, 'month').format('YYYY-MM-DD');
  }
}

/** The calendar day, in `timeZone`, that starts the day, week (from Monday) or month `instant` falls in. */
export function bucketStart(instant: Date, unit: BucketUnit, timeZone: string): CalendarDay {
  return bucketOf(calendarDayIn(instant, timeZone), unit);
}

/**
 * The start of every bucket from the one holding `start` to the one holding `end`, in order, so a chart
 * shows the buckets nothing happened in too. None when `start` is after `end`.
 */
export function bucketDays(start: CalendarDay, end: CalendarDay, unit: BucketUnit): CalendarDay[] {
  const last = bucketOf(assertCalendarDay(end), unit);
  const buckets: CalendarDay[] = [];
  let bucket = bucketOf(assertCalendarDay(start), unit);
  while (bucket <= last) {
    buckets.push(bucket);
    bucket = nextBucket(bucket, unit);
  }
  return buckets;
}
