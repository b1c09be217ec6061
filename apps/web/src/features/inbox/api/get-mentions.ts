import type { MentionList, Note, StaffNotification } from '@switchboard/shared';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api, type Envelope } from '@/lib/api-client.ts';
import { useSocket } from '@/lib/use-socket.ts';
import { inboxKeys } from './query-keys.ts';

export async function getMentions(signal?: AbortSignal): Promise<MentionList> {
  const { data } = await api.get<Envelope<MentionList>>('/mentions', { signal });
  return data.body;
}

export const getMentionsQueryOptions = () =>
  queryOptions({
    queryKey: inboxKeys.mentions(),
    queryFn: ({ signal }) => getMentions(signal),
    staleTime: 60_000,
  });

/**
 * Where teammates mentioned the person, newest first; read again when a new mention of them arrives (the
 * toast's event, or a note naming them in a thread this screen hears).
 */
export function useMentions(userId: string) {
  const queryClient = useQueryClient();
  const { socket } = useSocket();
  useEffect(() => {
    if (!socket) return;
    const refresh = () => void queryClient.invalidateQueries({ queryKey: inboxKeys.mentions() });
    const onNotification = (n: StaffNotification) => {
      if (n.kind === 'mention') refresh();
    };
    const onNote = (note: Note) => {
      if (note.mentions.includes(userId)) refresh();
    };
    socket.on('notification', onNotification);
    socket.on('note.created', onNote);
    return () => {
      socket.off('notification', onNotification);
      socket.off('note.created', onNote);
    };
  }, [socket, queryClient, userId]);
  return useQuery(getMentionsQueryOptions());
}
