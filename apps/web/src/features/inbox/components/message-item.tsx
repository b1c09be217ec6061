import { ExclamationCircleOutlined, FileOutlined, LoadingOutlined, RobotOutlined } from '@ant-design/icons';
import type { AiReplyMeta } from '@switchboard/shared';
import { formatFileSize } from '@switchboard/shared';
import { Button } from 'antd';
import { useOnline } from '@/lib/use-online.ts';
import { canRetrySend, useFailedSend } from '../api/send-message.ts';
import type { Attachment, MessageDto } from '../types.ts';
import { formatClock, formatFullTime } from '../utils/format.ts';
import { optimisticId } from '../utils/message-cache.ts';
import { automaticSender, readEmailMeta, readStory, unsentAt } from '../utils/message-meta.ts';
import { AssistantNote } from './assistant-note.tsx';
import { CallCard, callOf } from './call-card.tsx';
import { EmailBody, EmailNotes, SentVia, StoryLine } from './email-extras.tsx';
import { MessageStatusTick } from './message-status.tsx';
import { AutomaticAvatar, PersonAvatar } from './person-avatar.tsx';

function AttachmentView({ attachment, onImageLoad }: { attachment: Attachment; onImageLoad: () => void }) {
  if (attachment.content_type.startsWith('image/')) {
    return (
      <a
        href={attachment.url}
        target="_blank"
        rel="noopener noreferrer"
        aria-label={`Open image ${attachment.name}`}
      >
        <img
          className="ib-attachment-image"
          src={attachment.url}
          alt={attachment.name}
          loading="lazy"
          onLoad={onImageLoad}
        />
      </a>
    );
  }
  return (
    <a
      className="ib-file"
      href={attachment.url}
      target="_blank"
      rel="noopener noreferrer"
      download={attachment.name}
    >
      <span className="ib-file-icon" aria-hidden="true">
        <FileOutlined />
      </span>
      <span style={{ minWidth: 0 }}>
        <span className="ib-file-name">{attachment.name}</span>
        <span className="ib-file-size">{formatFileSize(attachment.size)}</span>
      </span>
    </a>
  );
}

type Props = {
  message: MessageDto;
  customerName: string | null;
  customerSeed: string;
  /** The last of a run from one sender carries the avatar, name and time; the rest sit close above it. */
  lastOfRun: boolean;
  userId: string;
  onImageLoad: () => void;
  /** A website chat's messages say which way each went: in the chat, or by SMS. */
  showWay?: boolean;
};

/** One message: left for the customer, right for the team, with who sent it, when, and where it got to. */
/** Which way a message of a website chat went: the chat itself, or text messages once the visitor left. */
export function wayOf(message: MessageDto): string | null {
  if (message.channel === 'sms' || message.channel === 'mms') return 'by SMS';
  if (message.meta.delivered_via === 'sms') return 'by SMS';
  if (message.direction === 'in' || message.meta.delivered_via === 'chat') return 'in website chat';
  return null;
}

export function MessageItem({
  message,
  customerName,
  customerSeed,
  lastOfRun,
  userId,
  onImageLoad,
  showWay = false,
}: Props) {
  const outbound = message.direction === 'out';
  const sender = outbound
    ? message.team_user_id === userId
      ? 'You'
      : (message.team_user?.full_name ??
        (message.ai_interaction === 'ai_generated'
          ? 'AI assistant'
          : message.meta.auto === 'missed_call_text'
            ? 'Automatic text after a missed call'
            : 'Team'))
    : (customerName ?? 'Customer');
  const automatic = automaticSender(message);
  const avatarName = outbound ? (message.team_user?.full_name ?? 'Team') : customerName;
  const avatarSeed = outbound ? (message.team_user_id ?? 'team') : customerSeed;
  const text = message.message.trim();
  const subject = typeof message.meta.subject === 'string' ? message.meta.subject : undefined;
  // Files the provider sent, still being downloaded; the message is updated live when they arrive.
  const pending = typeof message.meta.media_pending === 'number' ? message.meta.media_pending : 0;
  const way = showWay ? wayOf(message) : null;
  const call = callOf(message);
  const email = readEmailMeta(message.meta, message.direction);
  const story = message.direction === 'in' ? readStory(message.meta) : null;
  const unsent = message.direction === 'in' ? unsentAt(message.meta) : null;
  // Inside a run only a message still on its way (or refused, or gone another way, or sent through a relay) shows
  // its own time and tick.
  const showMeta =
    lastOfRun ||
    message.status === 'queued' ||
    message.status === 'failed' ||
    email.sentBy !== null ||
    (way !== null && way !== 'in website chat');

  return (
    <li
      className="ib-msg"
      data-dir={outbound ? 'out' : 'in'}
      data-status={message.status}
      data-last={lastOfRun}
    >
      <span style={{ width: 30, flexShrink: 0, visibility: lastOfRun ? 'visible' : 'hidden' }}>
        {automatic ? (
          <AutomaticAvatar kind={automatic} size={30} />
        ) : (
          <PersonAvatar
            name={avatarName}
            seed={avatarSeed}
            size={30}
            src={outbound ? message.team_user?.avatar : null}
          />
        )}
      </span>
      <div className="ib-msg-body">
        {call && <CallCard message={message} call={call} />}
        {story && <StoryLine story={story} />}
        {unsent && (
          <div className="ib-bubble ib-bubble-unsent" title={formatFullTime(unsent)}>
            The customer unsent this message
          </div>
        )}
        {!call && !unsent && (text || subject) && (
          <div className="ib-bubble">
            {subject && <span className="ib-subject">{subject}</span>}
            <EmailBody text={text} html={email.html} fuller={email.htmlFuller} />
          </div>
        )}
        {!call && message.attachments.length > 0 && (
          <div className="ib-attachments">
            {message.attachments.map((a) => (
              <AttachmentView key={a.id} attachment={a} onImageLoad={onImageLoad} />
            ))}
          </div>
        )}
        {pending > 0 && (
          <div className="ib-attachments-pending">
            <LoadingOutlined aria-hidden="true" />
            <span>
              Fetching {pending === 1 ? 'an attachment' : `${pending} attachments`} from the provider…
            </span>
          </div>
        )}
        {message.status === 'queued' && message.id === optimisticId(message.client_id ?? '') && (
          <WaitingForConnection />
        )}
        {message.status === 'failed' &&
          (canRetrySend(message) ? (
            <div className="ib-msg-error" role="alert">
              <ExclamationCircleOutlined style={{ marginTop: 3 }} />
              <span>{message.error}</span>
              <FailedSendActions message={message} />
            </div>
          ) : (
            <div className="ib-msg-error" role="alert">
              <ExclamationCircleOutlined style={{ marginTop: 3 }} />
              <span>Not delivered{message.error ? `: ${message.error}` : '.'}</span>
            </div>
          ))}
        <EmailNotes email={email} />
        {outbound && isAiReply(message.meta.ai) && <AssistantNote message={message} ai={message.meta.ai} />}
        <div className="ib-msg-meta" hidden={!showMeta}>
          {message.ai_interaction && <RobotOutlined title="Written with the AI assistant" />}
          <span>{sender}</span>
          <span aria-hidden="true">·</span>
          <time dateTime={message.created_at} title={formatFullTime(message.created_at)}>
            {formatClock(message.created_at)}
          </time>
          {way && (
            <>
              <span aria-hidden="true">·</span>
              <span className="ib-msg-way" data-way={way === 'by SMS' ? 'sms' : 'chat'}>
                {way}
              </span>
            </>
          )}
          {email.sentBy && <SentVia address={email.sentBy} />}
          {outbound && !call && <MessageStatusTick status={message.status} />}
        </div>
      </div>
    </li>
  );
}

/** Retry (the same message, sent once however often it is tried) or discard a reply that was not sent. */
function FailedSendActions({ message }: { message: MessageDto }) {
  const { retry, discard, retrying } = useFailedSend();
  return (
    <span className="ib-msg-error-actions">
      <Button
        size="small"
        type="link"
        loading={retrying}
        onClick={() => message.client_id && retry(message.client_id)}
      >
        Retry
      </Button>
      <Button size="small" type="link" danger onClick={() => discard(message)}>
        Discard
      </Button>
    </span>
  );
}

/** A reply written while offline waits in the browser and goes once the connection is back: say so. */
function WaitingForConnection() {
  const online = useOnline();
  if (online) return null;
  return (
    <div className="ib-msg-waiting" role="status">
      <LoadingOutlined aria-hidden="true" /> Waiting for a connection: it will be sent when you are back
      online.
    </div>
  );
}

/** The assistant's own reply carries what it did and its sources (`meta.ai`). */
function isAiReply(value: unknown): value is AiReplyMeta {
  const ai = value as AiReplyMeta | null | undefined;
  return !!ai && typeof ai.action === 'string' && Array.isArray(ai.sources);
}
