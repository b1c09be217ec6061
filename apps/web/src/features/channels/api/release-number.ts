import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client.ts';
import { sharedQueryKeys } from '@/lib/query-keys.ts';
import { channelsKey } from './get-channels.ts';

export async function releaseNumber(id: string): Promise<void> {
  await api.delete(`/channels/numbers/${encodeURIComponent(id)}`);
}

export function useReleaseNumber() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: releaseNumber,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: sharedQueryKeys.me }),
        queryClient.invalidateQueries({ queryKey: channelsKey }),
      ]),
  });
}
