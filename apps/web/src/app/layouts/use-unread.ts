import type { UnreadCounts } from '@switchboard/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api, type Envelope } from '@/lib/api-client.ts';
import { setFaviconBadge } from '@/lib/favicon-badge.ts';
import { useSocket } from '@/lib/use-socket.ts';

const BASE_TITLE = 'Switchboard';
// Under 'enquiries', so the inbox's refetch after a reconnect refreshes it too.
const UNREAD_KEY = ['enquiries', 'unread'] as const;

/**
 * Open enquiries with unseen news, per location the person works at: their sum is in the tab's title and icon
 * and on the Inbox menu item on every page of the app (news at another of their locations counts too, so it is
 * not missed while one location is selected), kept current by the socket's enquiry and message events (and
 * every minute, for the locations whose rooms this browser has not joined).
 */
export function useUnread(locationId: string | null): { unread: number; byLocation: Map<string, number> } {
  const queryClient = useQueryClient();
  const { socket } = useSocket();
  const counts = useQuery({
    queryKey: UNREAD_KEY,
    queryFn: async ({ signal }) => {
      const { data } = await api.get<Envelope<UnreadCounts>>('/enquiries/unread', { signal, silent: true });
      return data.body;
    },
    refetchInterval: 60_000,
    enabled: locationId !== null,
  });

  useEffect(() => {
    if (!socket) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // A burst of events asks once.
    const refresh = () => {
      clearTimeout(timer);
      timer = setTimeout(
        () => void queryClient.invalidateQueries({ queryKey: UNREAD_KEY, exact: true }),
        400,
      );
    };
    socket.on('enquiry.created', refresh);
    socket.on('enquiry.updated', refresh);
    socket.on('message.created', refresh);
    return () => {
      clearTimeout(timer);
      socket.off('enquiry.created', refresh);
      socket.off('enquiry.updated', refresh);
      socket.off('message.created', refresh);
    };
  }, [socket, queryClient]);

  const byLocation = new Map((counts.data?.items ?? []).map((r) => [r.location_id, r.unread]));
  const unread = locationId ? [...byLocation.values()].reduce((sum, n) => sum + n, 0) : 0;
  useEffect(() => {
    document.title = unread > 0 ? `(${unread > 99 ? '99+' : unread}) ${BASE_TITLE}` : BASE_TITLE;
    setFaviconBadge(unread);
    return () => {
      document.title = BASE_TITLE;
      setFaviconBadge(0);
    };
  }, [unread]);
  return { unread, byLocation };
}
