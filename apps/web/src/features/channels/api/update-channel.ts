import type { ChannelAccountJson } from '@switchboard/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type Envelope } from '@/lib/api-client.ts';
import { CHANNEL_FORM_STATUSES } from './create-channel.ts';
import { channelsKey } from './get-channels.ts';

/** A secret sent back exactly as it was answered (masked) keeps its stored value. */
export async function updateChannel({
  id,
  config,
}: {
  id: string;
  config: Record<string, string | null>;
}): Promise<ChannelAccountJson> {
  const { data } = await api.patch<Envelope<ChannelAccountJson>>(
    `/channels/${encodeURIComponent(id)}`,
    { config },
    { handledStatuses: CHANNEL_FORM_STATUSES },
  );
  return data.body;
}

export function useUpdateChannel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateChannel,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: channelsKey }),
  });
}
