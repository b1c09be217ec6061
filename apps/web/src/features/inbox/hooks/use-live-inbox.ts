import type { Note } from '@switchboard/shared';
import { type Query, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { sharedQueryKeys } from '@/lib/query-keys.ts';
import { useSocket } from '@/lib/use-socket.ts';
import { writeNote } from '../api/notes.ts';
import { inboxKeys } from '../api/query-keys.ts';
import type { EnquiryRow, InboxUser, MessageDto } from '../types.ts';
import { writeCounts, writeEnquiry, writeMessage, writeMessageStatus } from '../utils/query-cache.ts';

type Options = { user: InboxUser };

/** What a reconnect refetches: everything the inbox shows that events keep current (not drafts). */
function missedWhileAway(query: Query): boolean {
  const [, part] = query.queryKey as readonly unknown[];
  return part !== 'draft' && part !== 'templates';
}

/**
 * Keeps the inbox live: writes every server event from the app's socket (held open by the app layout) into
 * the query cache (lists, the open thread, counters), so no screen needs a refresh. After a reconnect (or
 * the first connect, which may come a moment after the first fetch), and when the inbox comes back on
 * screen, it refetches what it may have missed.
 */
export function useLiveInbox({ user }: Options): void {
  const queryClient = useQueryClient();
  const { socket } = useSocket();
  const userRef = useRef(user);
  userRef.current = user;

  useEffect(() => {
    if (!socket) return;
    // The sounds for these events play on every page: the app layout's notification sounds.
    const onEnquiryCreated = (row: EnquiryRow) => writeEnquiry(queryClient, row, userRef.current.id);
    const onEnquiryUpdated = (row: EnquiryRow) => writeEnquiry(queryClient, row, userRef.current.id);
    const onMessageCreated = (message: MessageDto) => writeMessage(queryClient, message);
    const onMessageUpdated = (message: MessageDto) => writeMessageStatus(queryClient, message);
    const onNoteCreated = (note: Note) => writeNote(queryClient, note);
    const onCounts = writeCounts.bind(null, queryClient);
    const refetchMissed = (options?: { cancelRefetch: boolean }) => {
      void queryClient.invalidateQueries({ queryKey: inboxKeys.all, predicate: missedWhileAway }, options);
      void queryClient.invalidateQueries({ queryKey: sharedQueryKeys.me }, options);
    };
    const onConnect = () => refetchMissed();

    socket.on('enquiry.created', onEnquiryCreated);
    socket.on('enquiry.updated', onEnquiryUpdated);
    socket.on('message.created', onMessageCreated);
    socket.on('message.updated', onMessageUpdated);
    socket.on('note.created', onNoteCreated);
    socket.on('counts.updated', onCounts);
    socket.on('connect', onConnect);
    // The connection outlives the inbox (the app layout holds it), so coming back from another page is not a
    // reconnect: what arrived meanwhile was never written here. A fetch already under way (the list's first
    // load) is not restarted.
    if (socket.connected) refetchMissed({ cancelRefetch: false });
    return () => {
      socket.off('enquiry.created', onEnquiryCreated);
      socket.off('enquiry.updated', onEnquiryUpdated);
      socket.off('message.created', onMessageCreated);
      socket.off('message.updated', onMessageUpdated);
      socket.off('note.created', onNoteCreated);
      socket.off('counts.updated', onCounts);
      socket.off('connect', onConnect);
    };
  }, [socket, queryClient]);
}
