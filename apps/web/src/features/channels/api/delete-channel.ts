import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client.ts';
import { channelsKey } from './get-channels.ts';

export async function deleteChannel(id: string): Promise<void> {
  await api.delete(`/channels/${encodeURIComponent(id)}`);
}

export function useDeleteChannel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteChannel,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: channelsKey }),
  });
}
