import { NotificationOutlined, WarningOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { Link } from 'react-router';
import { failureText } from '@/lib/failure-text.ts';
import { useMentions } from '../api/get-mentions.ts';
import { useMarkMentionsRead } from '../api/mark-mentions-read.ts';
import { useNow } from '../hooks/use-now.ts';
import { customerLabel, formatFullTime, formatListTime } from '../utils/format.ts';
import { EmptyState } from './empty-state.tsx';
import { EnquiryListSkeleton } from './enquiry-list.tsx';
import { PersonAvatar } from './person-avatar.tsx';

/**
 * The notes where teammates mentioned the person, newest first, the unread ones marked: what the mention's
 * toast said, kept. Opening one opens its conversation and marks it read.
 */
export function MentionList({
  userId,
  hrefFor,
  selectedId,
}: {
  userId: string;
  hrefFor: (id: string) => string;
  selectedId: string | undefined;
}) {
  const mentions = useMentions(userId);
  const markRead = useMarkMentionsRead(userId);
  const now = useNow();
  if (mentions.isPending) return <EnquiryListSkeleton />;
  if (mentions.isError) {
    return (
      <div className="ib-scroll">
        <EmptyState
          icon={<WarningOutlined />}
          title="We could not load your mentions"
          action={<Button onClick={() => mentions.refetch()}>Try again</Button>}
        >
          {failureText(mentions.error)}
        </EmptyState>
      </div>
    );
  }
  const items = mentions.data.items;
  if (!items.length) {
    return (
      <div className="ib-scroll">
        <EmptyState icon={<NotificationOutlined />} title="No mentions yet">
          When a teammate writes @ and your name in a private note, it is kept here.
        </EmptyState>
      </div>
    );
  }
  return (
    <div className="ib-scroll">
      <ul className="ib-mentions" aria-label="Mentions">
        {items.map(({ note, enquiry, read }) => {
          const author = note.author?.full_name ?? 'A former teammate';
          return (
            <li key={note.id}>
              <Link
                to={hrefFor(enquiry.id)}
                className="ib-row"
                data-unread={!read}
                aria-current={selectedId === enquiry.id ? 'page' : undefined}
                onClick={() => {
                  if (!read) markRead.mutate(enquiry.id);
                }}
              >
                <PersonAvatar
                  name={note.author?.full_name ?? null}
                  seed={note.user_id ?? 'team'}
                  src={note.author?.avatar}
                />
                <span className="ib-row-main">
                  <span className="ib-row-line">
                    <span className="ib-row-name">
                      {author}{' '}
                      <span className="ib-mention-about">
                        about {customerLabel(enquiry.customer, enquiry.channel)}
                      </span>
                    </span>
                    <time
                      className="ib-row-time"
                      dateTime={note.created_at}
                      title={formatFullTime(note.created_at)}
                    >
                      {formatListTime(note.created_at, now)}
                    </time>
                  </span>
                  <span className="ib-row-line">
                    <span className="ib-row-preview">{note.body}</span>
                    {!read && (
                      <>
                        <span className="ib-unread-dot" aria-hidden="true" />
                        <span className="sr-only">Unread</span>
                      </>
                    )}
                  </span>
                </span>
              </Link>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
