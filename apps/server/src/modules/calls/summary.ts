import { clipText } from '@switchboard/shared';
import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';

dayjs.extend(utc);
dayjs.extend(timezone);

/** What a call was about, as the thread's call card shows it (spec: summary, summary_details). */
export type CallSummaryDetails = {
  /** Why the customer called, in their words. */
  reasons: string[];
  /** What was promised, in the words said. */
  actions: string[];
  /** When a follow-up was mentioned: a day ('2026-11-27') when it can be worked out, else the words said. */
  follow_up: string | null;
};

const REASON =
  /\b(calling (about|regarding|to|because)|wondering|would like|i'd like|i want|wanted to|i need|need to|book|booking|appointment|question|quote|price|cost|cancel|reschedule|move my|problem|issue|pain|broken)\b/i;
const ACTION =
  /\b(i'll|i will|we'll|we will|will (call|send|email|text|book|check|confirm)|going to|let me|i can (book|send|move))\b/i;
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const WHEN =
  /\b(today|tomorrow|next week|(?:next |this )?(?:sunday|monday|tuesday|wednesday|thursday|friday|saturday)|\d{1,2}(?:st|nd|rd|th)? (?:of )?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*)\b/i;

const sentencesOf = (text: string) =>
  text
    .replace(/\s+/g, ' ')
    .split(/(?<=[.!?])\s+/)
    .map((s) => s.trim())
    .filter((s) => s.length > 2);

/** The day a spoken 'today', 'tomorrow' or weekday names, in the business's time zone; else the words. */
function followUpDay(words: string, now: Date, timeZone: string): string {
  const today = dayjs(now).tz(timeZone).startOf('day');
  const w = words.toLowerCase();
  if (w === 'today') return today.format('YYYY-MM-DD');
  if (w === 'tomorrow') return today.add(1, 'day').format('YYYY-MM-DD');
  const day = WEEKDAYS.findIndex((d) => w.endsWith(d));
  if (day >= 0) {
    const ahead = (day - today.day() + 7) % 7 || 7;
    return today.add(ahead + (w.startsWith('next ') && ahead < 7 ? 7 : 0), 'day').format('YYYY-MM-DD');
  }
  return words;
}

/**
 * A plain extractive summary of a call's transcript, for when no AI model is set up: the sentences that say
 * why the customer called and what was promised, and a follow-up day when one was mentioned. Nothing is made
 * up: every line is a sentence of the transcript.
 */
export function extractiveSummary(
  transcript: string,
  now: Date,
  timeZone: string,
): { summary: string; details: CallSummaryDetails } {
  const sentences = sentencesOf(transcript);
  // A promise is an action even when it names the reason ("I will book you in").
  const actions = sentences.filter((s) => ACTION.test(s)).slice(0, 3);
  const reasons = sentences.filter((s) => REASON.test(s) && !ACTION.test(s)).slice(0, 3);
  const when = sentences.map((s) => WHEN.exec(s)?.[0]).find(Boolean) ?? null;
  const lead = reasons[0] ?? sentences[0] ?? '';
  const summary = [lead, actions[0]].filter(Boolean).join(' ');
  return {
    summary: clipText(summary, 400, '…'),
    details: { reasons, actions, follow_up: when ? followUpDay(when, now, timeZone) : null },
  };
}
