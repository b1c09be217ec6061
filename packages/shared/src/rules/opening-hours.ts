import dayjs, { type Dayjs } from 'dayjs';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';

dayjs.extend(utc);
dayjs.extend(timezone);

/** The days of a week as a location's hours are kept, Sunday first like `Date.getDay()`. */
export const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** One stretch of a day the location is open, wall-clock 'HH:MM' in its time zone; `close` may be '24:00'. */
export type OpenPeriod = { open: string; close: string };

/**
 * A location's weekly hours: each day's open periods, none for a closed day. A location without hours
 * is always open (calls ring, the chat says when it usually replies).
 */
export type OpeningHours = Record<Weekday, OpenPeriod[]>;

/** How soon the location usually answers, as the chat tells visitors while it is open. */
export const REPLY_TIMES = ['minutes', 'hour', 'hours', 'day'] as const;
export type ReplyTime = (typeof REPLY_TIMES)[number];
export const REPLY_TIME_TEXT: Record<ReplyTime, string> = {
  minutes: 'a few minutes',
  hour: 'an hour',
  hours: 'a few hours',
  day: 'a day',
};

/** A day a location is closed whatever its weekly hours say: 'YYYY-MM-DD' in its time zone, and what it is. */
export type Holiday = { date: string; name: string | null };

/** The most holidays a location keeps (a few years' public holidays and closures). */
export const HOLIDAYS_MAX = 200;

/**
 * A location's hours as stored: null is always open; a reply time the product no longer offers is none;
 * `holidays` as the days they fall on.
 */
export function hoursOf(stored: { opening_hours: unknown; reply_time?: string | null; holidays?: unknown }): {
  opening_hours: OpeningHours | null;
  reply_time: ReplyTime | null;
  holidays: string[];
} {
  const holidays = Array.isArray(stored.holidays) ? (stored.holidays as Holiday[]) : [];
  return {
    opening_hours: (stored.opening_hours as OpeningHours | null) ?? null,
    reply_time: REPLY_TIMES.find((t) => t === stored.reply_time) ?? null,
    holidays: holidays.map((h) => h.date).filter((d) => typeof d === 'string'),
  };
}

export const CLOCK_TIME = /^(?:[01]\d|2[0-3]):[0-5]\d$|^24:00$/;

/** Minutes since midnight of an 'HH:MM' time. */
export const minutesOf = (time: string): number => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** What is wrong with a day's periods (each must end after it starts, and none may overlap), or null. */
export function periodsProblem(periods: OpenPeriod[]): string | null {
  const sorted = [...periods].sort((a, b) => minutesOf(a.open) - minutesOf(b.open));
  for (const [i, p] of sorted.entries()) {
    if (minutesOf(p.close) <= minutesOf(p.open)) return `${p.open}–${p.close} must end after it starts.`;
    const next = sorted[i + 1];
    if (next && minutesOf(next.open) < minutesOf(p.close))
      return `${p.open}–${p.close} overlaps ${next.open}.`;
  }
  return null;
}

export type OpeningState =
  /** `until`: when this open stretch ends (null: always open). */
  | { open: true; until: Date | null }
  /** `opens`: when the location next opens (null: no open hours at all). */
  | { open: false; opens: Date | null };

/** The instant a wall-clock time falls on a given day in the zone (parsed as written, so right across daylight saving). */
function at(day: Dayjs, minutes: number, timeZone: string): Date {
  const date = day.add(Math.floor(minutes / 1440), 'day').format('YYYY-MM-DD');
  const rest = minutes % 1440;
  const hh = String(Math.floor(rest / 60)).padStart(2, '0');
  const mm = String(rest % 60).padStart(2, '0');
  return dayjs.tz(`${date}T${hh}:${mm}`, timeZone).toDate();
}

/**
 * Whether the location is open at `now`, and until when, or when it opens next. On a holiday (a day in
 * `holidays`, in the location's zone) it is closed all day, with or without weekly hours.
 */
export function openingState(
  hours: OpeningHours | null,
  timeZone: string,
  now: Date,
  holidays: readonly string[] = [],
): OpeningState {
  const closed = new Set(holidays);
  if (!hours && closed.size === 0) return { open: true, until: null };
  const local = dayjs(now).tz(timeZone);
  const today = dayjs.utc(local.format('YYYY-MM-DD'));
  const minute = local.hour() * 60 + local.minute();
  const periods = (offset: number): OpenPeriod[] => {
    const day = today.add(offset, 'day');
    if (closed.has(day.format('YYYY-MM-DD'))) return [];
    if (!hours) return [{ open: '00:00', close: '24:00' }];
    return [...(hours[WEEKDAYS[day.day()] ?? 'sun'] ?? [])].sort(
      (a, b) => minutesOf(a.open) - minutesOf(b.open),
    );
  };
  // Every holiday can push the next opening a day further.
  const horizon = 7 + closed.size;
  const current = periods(0).find((p) => minutesOf(p.open) <= minute && minute < minutesOf(p.close));
  if (current && hours) return { open: true, until: at(today, minutesOf(current.close), timeZone) };
  if (current) {
    // Always open but for holidays: open until the next one.
    for (let offset = 1; offset <= horizon; offset++) {
      if (periods(offset).length === 0)
        return { open: true, until: at(today.add(offset, 'day'), 0, timeZone) };
    }
    return { open: true, until: null };
  }
  for (let offset = 0; offset <= horizon; offset++) {
    const next = periods(offset).find((p) => offset > 0 || minutesOf(p.open) > minute);
    if (next) return { open: false, opens: at(today.add(offset, 'day'), minutesOf(next.open), timeZone) };
  }
  return { open: false, opens: null };
}

/** '9:00 am', '5:30 pm'. */
function clock(time: Dayjs): string {
  return time.format(time.minute() === 0 ? 'h a' : 'h:mm a');
}

/**
 * The line a website visitor reads under the chat's greeting: when the location usually replies while it is
 * open, or that it is closed and when it opens again (in the location's time zone).
 */
export function availabilityLine(
  hours: OpeningHours | null,
  replyTime: ReplyTime | null,
  timeZone: string,
  now: Date,
  holidays: readonly string[] = [],
): string {
  const state = openingState(hours, timeZone, now, holidays);
  if (state.open) {
    return replyTime
      ? `We usually reply within ${REPLY_TIME_TEXT[replyTime]}.`
      : 'We reply as soon as we can.';
  }
  if (!state.opens) return "We're closed at the moment. Leave a message and we'll reply when we can.";
  const opens = dayjs(state.opens).tz(timeZone);
  const days = dayjs
    .utc(opens.format('YYYY-MM-DD'))
    .diff(dayjs.utc(dayjs(now).tz(timeZone).format('YYYY-MM-DD')), 'day');
  // Opening at midnight (after a holiday, with no weekly hours) is opening that day.
  const at = opens.hour() === 0 && opens.minute() === 0 ? '' : ` at ${clock(opens)}`;
  const when = days === 0 ? `today${at}` : days === 1 ? `tomorrow${at}` : `${opens.format('dddd')}${at}`;
  return `We're closed now and open again ${when}. Leave a message and we'll reply then.`;
}
