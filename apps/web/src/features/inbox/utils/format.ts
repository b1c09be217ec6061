import dayjs from 'dayjs';
import { phoneText } from '../../../lib/phones.ts';
import type { EnquiryRow } from '../types.ts';

type Customer = EnquiryRow['customer'];

/**
 * Who the enquiry is with: their name, else the phone (written as dialled) or email they wrote from. A website chat visitor who
 * gave none of them is a 'Website visitor': the id the chat made up for them is ours, never their name.
 */
export function customerLabel(customer: Customer, channel?: string): string {
  return (
    customer.name?.trim() ||
    phoneText(customer.phone) ||
    customer.email ||
    (channel === 'widget' ? 'Website visitor' : 'Unknown customer')
  );
}

export function initials(name: string): string {
  const words = name
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .trim()
    .split(/\s+/)
    .filter(Boolean);
  if (words.length === 0) return '?';
  const first = words[0]?.[0] ?? '';
  const last = words.length > 1 ? (words.at(-1)?.[0] ?? '') : '';
  return (first + last).toUpperCase();
}

/**
 * A list row's time, short enough for a narrow column: 'now', '5m', '3h' today; then 'Yesterday', the
 * weekday within a week, the date this year, and the full date before that.
 */
export function formatListTime(iso: string, now: Date = new Date()): string {
  const at = dayjs(iso);
  const ref = dayjs(now);
  const minutes = ref.diff(at, 'minute');
  if (minutes < 1) return 'now';
  if (minutes < 60) return `${minutes}m`;
  if (at.isSame(ref, 'day')) return `${ref.diff(at, 'hour')}h`;
  if (at.isSame(ref.subtract(1, 'day'), 'day')) return 'Yesterday';
  if (ref.diff(at, 'day') < 7) return at.format('ddd');
  if (at.isSame(ref, 'year')) return at.format('D MMM');
  return at.format('D MMM YYYY');
}

/** The separator above a day's messages in a thread. */
export function formatDayLabel(iso: string, now: Date = new Date()): string {
  const at = dayjs(iso);
  const ref = dayjs(now);
  if (at.isSame(ref, 'day')) return 'Today';
  if (at.isSame(ref.subtract(1, 'day'), 'day')) return 'Yesterday';
  if (at.isSame(ref, 'year')) return at.format('dddd, D MMMM');
  return at.format('D MMMM YYYY');
}

export function formatClock(iso: string): string {
  return dayjs(iso).format('h:mm A');
}

export function formatFullTime(iso: string): string {
  return dayjs(iso).format('D MMM YYYY, h:mm A');
}

export function sameDay(a: string, b: string): boolean {
  return dayjs(a).isSame(dayjs(b), 'day');
}

/** "Priya Shah is also viewing", "Priya Shah and Sam Nguyen are also viewing", "… and 2 others …". */
export function peopleSentence(names: readonly string[], singular: string, plural: string): string | null {
  const unique = [...new Set(names.map((n) => n.trim() || 'A teammate'))];
  if (unique.length === 0) return null;
  if (unique.length === 1) return `${unique[0]} ${singular}`;
  if (unique.length === 2) return `${unique[0]} and ${unique[1]} ${plural}`;
  const others = unique.length - 2;
  return `${unique[0]}, ${unique[1]} and ${others} other${others === 1 ? '' : 's'} ${plural}`;
}

// Messages from one sender within this long of each other read as one run: one avatar, one time.
const RUN_GAP_MS = 5 * 60_000;

/** Whether `next` continues `previous`'s run in the thread (same side, same person, same day, soon after). */
export function continuesRun(
  previous: { direction: string; team_user_id: string | null; created_at: string },
  next: { direction: string; team_user_id: string | null; created_at: string },
): boolean {
  return (
    previous.direction === next.direction &&
    previous.team_user_id === next.team_user_id &&
    sameDay(previous.created_at, next.created_at) &&
    Date.parse(next.created_at) - Date.parse(previous.created_at) < RUN_GAP_MS
  );
}
