import { ArrowDownOutlined, LoadingOutlined, MessageOutlined, WarningOutlined } from '@ant-design/icons';
import type { Note } from '@switchboard/shared';
import { Button } from 'antd';
import { Fragment, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { failureText } from '@/lib/failure-text.ts';
import { useMessages } from '../api/get-messages.ts';
import { useNotes } from '../api/notes.ts';
import { useStickToBottom } from '../hooks/use-stick-to-bottom.ts';
import type { EnquiryRow, MessageDto } from '../types.ts';
import { continuesRun, formatDayLabel, sameDay } from '../utils/format.ts';
import { flattenMessages } from '../utils/message-cache.ts';
import { EarlierConversations } from './earlier-conversations.tsx';
import { EmptyState } from './empty-state.tsx';
import { MessageItem } from './message-item.tsx';
import { NoteItem } from './note-item.tsx';
import { Placeholder } from './placeholder.tsx';

type Entry = { kind: 'message'; at: string; message: MessageDto } | { kind: 'note'; at: string; note: Note };

// Within this distance of the bottom the thread follows new messages; further up, the reader is reading.
const STICK_PX = 120;
const LOAD_OLDER_PX = 200;

/**
 * The conversation, oldest at the top. Opens at the newest message; older pages load when scrolling near
 * the top without moving what is being read; new messages scroll into view when the reader is at the
 * bottom (or sent them), and otherwise wait behind a "new messages" button.
 */
export function MessageThread({ enquiry, userId }: { enquiry: EnquiryRow; userId: string }) {
  const thread = useMessages(enquiry.id);
  const messages = useMemo(() => flattenMessages(thread.data), [thread.data]);
  const notes = useNotes(enquiry.id).data;
  // Messages and private notes in time order; a note older than the loaded messages waits for their page.
  const timeline = useMemo(() => {
    const oldest = thread.hasNextPage ? messages[0]?.created_at : undefined;
    const items: Entry[] = messages.map((m) => ({ kind: 'message', at: m.created_at, message: m }));
    for (const n of notes ?? [])
      if (!oldest || n.created_at >= oldest) items.push({ kind: 'note', at: n.created_at, note: n });
    return items.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  }, [messages, notes, thread.hasNextPage]);
  const scrollRef = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const anchor = useRef<{ height: number; top: number } | null>(null);
  const lastId = useRef<string | undefined>(undefined);
  const [unseenBelow, setUnseenBelow] = useState(0);
  const { fetchNextPage, hasNextPage, isFetchingNextPage } = thread;

  const scrollToBottom = useCallback((smooth = false) => {
    const el = scrollRef.current;
    if (!el) return;
    el.scrollTo({ top: el.scrollHeight, behavior: smooth ? 'smooth' : 'auto' });
    atBottom.current = true;
    setUnseenBelow(0);
  }, []);

  const onScroll = () => {
    const el = scrollRef.current;
    if (!el) return;
    atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < STICK_PX;
    if (atBottom.current) setUnseenBelow(0);
    if (el.scrollTop < LOAD_OLDER_PX && hasNextPage && !isFetchingNextPage && !anchor.current) {
      anchor.current = { height: el.scrollHeight, top: el.scrollTop };
      void fetchNextPage().finally(() => {
        // Nothing was added (an empty or failed page): forget the anchor so scrolling can try again.
        requestAnimationFrame(() => {
          anchor.current = null;
        });
      });
    }
  };

  const pageCount = thread.data?.pages.length ?? 0;
  // An older page arrived above: keep the same message under the reader's eyes.
  useLayoutEffect(() => {
    const el = scrollRef.current;
    const kept = anchor.current;
    if (!el || !kept || pageCount === 0) return;
    el.scrollTop = kept.top + (el.scrollHeight - kept.height);
    anchor.current = null;
  }, [pageCount]);

  const last = timeline.at(-1);
  const newestId = last ? (last.kind === 'message' ? last.message.id : last.note.id) : undefined;
  const newestMine = last
    ? last.kind === 'message'
      ? last.message.direction === 'out' && last.message.team_user_id === userId
      : last.note.user_id === userId
    : false;
  useLayoutEffect(() => {
    if (!newestId) return;
    const previous = lastId.current;
    lastId.current = newestId;
    if (previous === undefined) {
      scrollToBottom();
      return;
    }
    if (previous === newestId) return;
    const mine = newestMine;
    if (mine || atBottom.current) scrollToBottom(!mine);
    else setUnseenBelow((n) => n + 1);
  }, [newestId, newestMine, scrollToBottom]);

  // Images and call cards change height as they load: stay at the bottom if that is where the reader was.
  useStickToBottom(scrollRef, atBottom, scrollToBottom);
  const onImageLoad = useCallback(() => {
    if (atBottom.current) scrollToBottom();
  }, [scrollToBottom]);

  useEffect(() => {
    // A reopened thread that fits without scrolling still needs its older pages reachable.
    const el = scrollRef.current;
    if (el && hasNextPage && !isFetchingNextPage && el.scrollHeight <= el.clientHeight) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  if (thread.isPending) {
    return (
      <div className="ib-thread" aria-busy="true">
        <span className="sr-only">Loading messages…</span>
        <ol>
          {[60, 40, 70].map((w, i) => (
            <li key={w} className="ib-msg" data-dir={i === 1 ? 'out' : 'in'}>
              <Placeholder width={30} height={30} round />
              <Placeholder width={w * 4} height={44} style={{ borderRadius: 16 }} />
            </li>
          ))}
        </ol>
      </div>
    );
  }
  if (thread.isError && messages.length === 0) {
    return (
      <div className="ib-thread">
        <EmptyState
          icon={<WarningOutlined />}
          title="We could not load this conversation"
          action={<Button onClick={() => thread.refetch()}>Try again</Button>}
        >
          {failureText(thread.error)}
        </EmptyState>
      </div>
    );
  }

  const customerName = enquiry.customer.name?.trim() || null;
  return (
    <div ref={scrollRef} className="ib-thread" onScroll={onScroll}>
      {hasNextPage ? (
        <div className="ib-older" role="status">
          {isFetchingNextPage ? (
            <>
              <LoadingOutlined /> Loading earlier messages…
            </>
          ) : (
            <Button type="link" size="small" onClick={() => void fetchNextPage()}>
              Show earlier messages
            </Button>
          )}
        </div>
      ) : messages.length > 0 ? (
        <>
          <EarlierConversations enquiry={enquiry} userId={userId} />
          <div className="ib-older">Start of the conversation</div>
        </>
      ) : null}
      {messages.length === 0 ? (
        <EmptyState icon={<MessageOutlined />} title="No messages yet">
          Write the first message below.
        </EmptyState>
      ) : (
        <ol aria-label="Messages" aria-live="polite" aria-relevant="additions">
          {timeline.map((entry, i) => {
            const before = timeline[i - 1];
            const after = timeline[i + 1];
            const newDay = !before || !sameDay(before.at, entry.at);
            const dayLabel = newDay && (
              <li className="ib-day" aria-hidden="true">
                {formatDayLabel(entry.at)}
              </li>
            );
            if (entry.kind === 'note') {
              return (
                <Fragment key={`note:${entry.note.id}`}>
                  {dayLabel}
                  <NoteItem note={entry.note} userId={userId} />
                </Fragment>
              );
            }
            const message = entry.message;
            return (
              <Fragment key={message.client_id ?? message.id}>
                {dayLabel}
                <MessageItem
                  message={message}
                  customerName={customerName}
                  customerSeed={enquiry.customer_id}
                  lastOfRun={after?.kind !== 'message' || !continuesRun(message, after.message)}
                  userId={userId}
                  onImageLoad={onImageLoad}
                  showWay={enquiry.channel === 'widget'}
                />
              </Fragment>
            );
          })}
        </ol>
      )}
      {unseenBelow > 0 && (
        <div className="ib-new-pill">
          <Button
            shape="round"
            size="small"
            type="primary"
            icon={<ArrowDownOutlined />}
            onClick={() => scrollToBottom(true)}
          >
            {unseenBelow === 1 ? 'New message' : `${unseenBelow} new messages`}
          </Button>
        </div>
      )}
    </div>
  );
}
