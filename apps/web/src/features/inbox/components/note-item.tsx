import { LockOutlined, ThunderboltOutlined } from '@ant-design/icons';
import type { Note } from '@switchboard/shared';
import { formatClock, formatFullTime } from '../utils/format.ts';
import { PersonAvatar } from './person-avatar.tsx';

/** Something that happened in the conversation (an invoice paid): a line of its own, for the team only. */
function EventItem({ note }: { note: Note }) {
  return (
    <li className="ib-event" aria-label="Activity">
      <ThunderboltOutlined aria-hidden="true" />
      <span className="ib-event-text">{note.body}</span>
      <time dateTime={note.created_at} title={formatFullTime(note.created_at)}>
        {formatClock(note.created_at)}
      </time>
    </li>
  );
}

/** A private note: set apart from the conversation (never sent), with its author and time. */
export function NoteItem({ note, userId }: { note: Note; userId: string }) {
  if (note.kind === 'event') return <EventItem note={note} />;
  const author = note.user_id === userId ? 'You' : (note.author?.full_name ?? 'A former teammate');
  return (
    <li className="ib-note" aria-label={`Private note by ${author}`}>
      <PersonAvatar
        name={note.author?.full_name ?? null}
        seed={note.user_id ?? 'team'}
        size={30}
        src={note.author?.avatar}
      />
      <div className="ib-note-body">
        <div className="ib-note-label">
          <LockOutlined aria-hidden="true" /> Private note · only your team sees this
        </div>
        <div className="ib-note-text">{note.body}</div>
        <div className="ib-msg-meta">
          <span>{author}</span>
          <span aria-hidden="true">·</span>
          <time dateTime={note.created_at} title={formatFullTime(note.created_at)}>
            {formatClock(note.created_at)}
          </time>
        </div>
      </div>
    </li>
  );
}
