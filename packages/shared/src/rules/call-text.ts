import { formatCallDuration } from './call-state.ts';

/** What a `phone_call` message's meta says about its call (`meta.call`). */
export type CallMeta = {
  id: string;
  direction: 'in' | 'out';
  from: string;
  to: string;
  /** Twilio's status names: queued, initiated, ringing, in-progress, completed, busy, no-answer, failed, canceled. */
  status: string;
  /** Seconds, once ended. */
  duration: number | null;
  voicemail: boolean;
  /** Who answered (in) or placed (out) it. */
  user: { id: string; full_name: string } | null;
};

/**
 * A hand-over of the call to a teammate, kept on the call's message (`meta.call_transfers`, oldest first): the
 * first one's `from` is who answered first.
 */
export type CallTransfer = {
  from: { id: string; full_name: string };
  to: { id: string; full_name: string };
  at: string;
};

const ENDED_UNANSWERED = new Set(['busy', 'no-answer', 'failed', 'canceled']);

/**
 * The line a call shows as in the conversation and the inbox list: 'Incoming call', 'Missed call',
 * 'Voicemail (0:42)', 'Call (2:05) with Sam'…
 */
export function callText(
  call: Pick<CallMeta, 'direction' | 'status' | 'duration' | 'voicemail' | 'user'>,
): string {
  const length = call.duration ? ` (${formatCallDuration(call.duration)})` : '';
  if (call.voicemail) return `Voicemail${length}`;
  const answered = call.user !== null || call.direction === 'out';
  if (call.status === 'queued' || call.status === 'initiated' || call.status === 'ringing')
    return call.direction === 'in' ? 'Incoming call' : 'Calling…';
  if (call.status === 'in-progress') return 'Call in progress';
  if (call.direction === 'in') {
    if (ENDED_UNANSWERED.has(call.status) || !call.user) return 'Missed call';
    return `Call${length} answered by ${call.user.full_name.split(/\s+/)[0]}`;
  }
  if (call.status === 'busy') return 'Outgoing call: busy';
  if (call.status === 'no-answer' || call.status === 'canceled') return 'Outgoing call: no answer';
  if (call.status === 'failed') return 'Outgoing call failed';
  return answered ? `Outgoing call${length}` : 'Outgoing call';
}
