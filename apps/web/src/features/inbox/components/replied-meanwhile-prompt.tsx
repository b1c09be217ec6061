import { WarningOutlined } from '@ant-design/icons';
import type { SendCollision } from '@switchboard/shared';
import { Button } from 'antd';
import { formatClock, formatListTime } from '../utils/format.ts';
import './replied-meanwhile-prompt.css';

/**
 * Someone else answered the customer while this person was writing: who, when and what they said, above the
 * reply that was not sent (it is back in the box). The person sends theirs anyway, or changes it first.
 */
export function RepliedMeanwhilePrompt({
  collision,
  onSendAnyway,
  onEdit,
}: {
  collision: SendCollision;
  onSendAnyway: () => void;
  onEdit: () => void;
}) {
  const { reply } = collision;
  const who = reply.by.kind === 'assistant' ? 'The assistant' : (reply.by.full_name ?? 'A teammate');
  const ago = formatListTime(reply.created_at);
  const files = reply.attachments === 1 ? '1 file' : `${reply.attachments} files`;
  return (
    <section className="ib-replied-meanwhile" role="alert" aria-label="Someone else replied">
      <p className="ib-replied-meanwhile-head">
        <WarningOutlined aria-hidden="true" />
        <span>
          <strong>{who}</strong> replied to this customer while you were writing (at{' '}
          <time dateTime={reply.created_at}>{formatClock(reply.created_at)}</time>
          {ago === 'now' ? ', just now' : ''}). Your reply was not sent.
        </span>
      </p>
      <blockquote>
        {reply.message || (reply.attachments > 0 ? `(${files})` : '')}
        {reply.message && reply.attachments > 0 ? ` (+ ${files})` : ''}
      </blockquote>
      <div className="ib-replied-meanwhile-actions">
        <Button size="small" onClick={onEdit}>
          Edit my reply
        </Button>
        <Button size="small" type="primary" onClick={onSendAnyway}>
          Send anyway
        </Button>
      </div>
    </section>
  );
}
