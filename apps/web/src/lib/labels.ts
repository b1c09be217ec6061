import type { Label } from '@switchboard/shared';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api, type Envelope } from '@/lib/api-client.ts';
import { useSocket } from '@/lib/use-socket.ts';

/** The business's labels, which enquiries and customers carry (owners manage them under Settings → Labels). */
export const labelsQueryOptions = () =>
  queryOptions({
    queryKey: ['labels'],
    queryFn: async ({ signal }) => {
      const { data } = await api.get<Envelope<{ items: Label[] }>>('/labels', { signal });
      return data.body.items;
    },
    staleTime: 5 * 60_000,
  });

export function useLabels() {
  return useQuery(labelsQueryOptions());
}

/** The labels are read again whenever the owner changes them, on whichever page is open. */
export function useLiveLabels(): void {
  const { socket } = useSocket();
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!socket) return;
    const onChanged = () => void queryClient.invalidateQueries({ queryKey: labelsQueryOptions().queryKey });
    socket.on('labels.changed', onChanged);
    return () => {
      socket.off('labels.changed', onChanged);
    };
  }, [socket, queryClient]);
}
