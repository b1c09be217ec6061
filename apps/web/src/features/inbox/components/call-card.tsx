import { LoadingOutlined, PhoneOutlined } from '@ant-design/icons';
import { type CallMeta, type CallTransfer, formatCallDuration } from '@switchboard/shared';
import type { MessageDto } from '../types.ts';

type Transcript = {
  text: string;
  /** `speaker` on a dual-channel call, whose two ends were transcribed apart. */
  segments: { start: number; end: number; text: string; speaker?: 'customer' | 'staff' }[];
};
type Details = { reasons?: string[]; actions?: string[]; follow_up?: string | null };

/** The call a `phone_call` message stands for, when it carries one. */
export function callOf(message: MessageDto): CallMeta | null {
  const call = message.meta.call as CallMeta | undefined;
  return message.channel === 'phone_call' && call && typeof call.status === 'string' ? call : null;
}

const missed = (call: CallMeta) =>
  call.direction === 'in' &&
  !call.user &&
  !['queued', 'initiated', 'ringing', 'in-progress'].includes(call.status);

/** Who answered first and whom the call went to, when it was handed on; null when it never was. */
function handOver(message: MessageDto): string | null {
  const kept = message.meta.call_transfers;
  const transfers = Array.isArray(kept) ? (kept as CallTransfer[]) : [];
  const first = transfers[0];
  if (!first) return null;
  const to = transfers.map((t) => t.to.full_name).join(', then to ');
  return `Answered first by ${first.from.full_name}, transferred to ${to}.`;
}

const LIVE = ['queued', 'initiated', 'ringing', 'in-progress'];

/**
 * Why a finished call that was taken or left a voicemail has no summary, or null when it has one or one is
 * on its way (a summary is written from the call's transcript, which is made from its recording).
 */
function missingSummary(
  message: MessageDto,
  call: CallMeta,
  notes: { recorded: boolean; recording: string | null; transcript: string | null },
): string | null {
  if (message.call_summary_status === 'completed' && message.summary) return null;
  if (missed(call) && !call.voicemail) return null;
  if (!notes.recorded) {
    // A call still going has no recording yet; one that has (a voicemail left) is judged by it.
    if (LIVE.includes(call.status)) return null;
    if (notes.recording) return 'there is no recording to summarise.';
    return call.voicemail ? 'the voicemail has not arrived yet.' : 'the call was not recorded.';
  }
  const transcription = message.call_transcription_status;
  if (transcription === 'in_progress' || transcription === 'completed') return null;
  return notes.transcript ?? 'the recording has not been transcribed yet.';
}

const followUpText = (value: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(value)
    ? new Date(`${value}T12:00:00`).toLocaleDateString(undefined, {
        weekday: 'long',
        day: 'numeric',
        month: 'long',
      })
    : value;

/**
 * A phone call in the conversation: how it went ('Missed call', 'Voicemail (00:42)', who answered and how long),
 * its recording to play, what it was about, and the transcript; each says when it is still being worked on.
 */
export function CallCard({ message, call }: { message: MessageDto; call: CallMeta }) {
  const recording = message.attachments.find((a) => a.content_type.startsWith('audio/'));
  const transcript = message.meta.call_transcript as Transcript | undefined;
  const transcriptNote =
    typeof message.meta.call_transcript_note === 'string' ? message.meta.call_transcript_note : null;
  const recordingNote =
    typeof message.meta.call_recording_note === 'string' ? message.meta.call_recording_note : null;
  const details = (message.summary_details ?? null) as Details | null;
  const number = call.direction === 'in' ? call.from : call.to;
  const noSummary = missingSummary(message, call, {
    recorded: Boolean(recording),
    recording: recordingNote,
    transcript: transcriptNote,
  });
  return (
    <section
      className="ib-call"
      data-missed={missed(call) && !call.voicemail}
      aria-label={`${call.direction === 'in' ? 'Call from' : 'Call to'} ${number}`}
    >
      <div className="ib-call-head">
        <span className="ib-call-icon" aria-hidden="true" data-dir={call.direction}>
          <PhoneOutlined />
        </span>
        <span className="ib-call-line">
          <strong>{message.message}</strong>
          <span className="ib-call-number">
            {call.direction === 'in' ? 'from' : 'to'} {number}
            {call.duration && !call.voicemail ? ` · ${formatCallDuration(call.duration)}` : ''}
          </span>
        </span>
      </div>
      {handOver(message) && <p className="ib-call-note">{handOver(message)}</p>}
      {recording ? (
        // biome-ignore lint/a11y/useMediaCaption: a call recording has no captions; its transcript is shown below.
        <audio
          className="ib-call-audio"
          controls
          // Only the length is fetched before play, so the player shows how long the call or voicemail is.
          preload="metadata"
          src={recording.url}
          aria-label={call.voicemail ? 'Voicemail' : 'Call recording'}
        />
      ) : (
        recordingNote && <p className="ib-call-note">{recordingNote}</p>
      )}
      {message.call_summary_status === 'completed' && message.summary && (
        <div className="ib-call-summary">
          <span className="ib-call-label">Summary</span>
          <p>{message.summary}</p>
          {details?.actions && details.actions.length > 0 && (
            <p>
              <span className="ib-call-label">Promised: </span>
              {details.actions.join(' ')}
            </p>
          )}
          {details?.follow_up && (
            <p>
              <span className="ib-call-label">Follow up: </span>
              {followUpText(details.follow_up)}
            </p>
          )}
        </div>
      )}
      {message.call_transcription_status === 'in_progress' && (
        <p className="ib-call-note" role="status">
          <LoadingOutlined aria-hidden="true" /> Transcribing the call…
        </p>
      )}
      {message.call_transcription_status === 'completed' && message.call_summary_status !== 'completed' && (
        <p className="ib-call-note" role="status">
          <LoadingOutlined aria-hidden="true" /> Summarising the call…
        </p>
      )}
      {noSummary && (
        <p className="ib-call-note" data-failed={message.call_transcription_status === 'failed'}>
          <span className="ib-call-label">No summary: </span>
          {noSummary}
        </p>
      )}
      {transcript?.text && (
        <details className="ib-call-transcript">
          <summary>Transcript</summary>
          {transcript.segments.length > 0 ? (
            <ol>
              {transcript.segments.map((s) => (
                <li key={`${s.speaker ?? ''}${s.start}-${s.end}`}>
                  <time>{formatCallDuration(s.start)}</time>{' '}
                  {s.speaker && (
                    <strong className="ib-call-speaker" data-speaker={s.speaker}>
                      {s.speaker === 'customer'
                        ? 'Customer'
                        : (call.user?.full_name.split(/\s+/)[0] ?? 'Staff')}
                      :
                    </strong>
                  )}{' '}
                  {s.text}
                </li>
              ))}
            </ol>
          ) : (
            <p>{transcript.text}</p>
          )}
        </details>
      )}
    </section>
  );
}
