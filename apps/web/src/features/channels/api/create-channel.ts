import type { ChannelAccountJson } from '@switchboard/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type Envelope } from '@/lib/api-client.ts';
import type { ChannelInput } from '../types.ts';
import { channelsKey } from './get-channels.ts';

/**
 * Refusals the channel form shows beside its fields, not as a notice: the provider did not accept the
 * credentials or said the address is not theirs (422), the address is another business's (409), or the
 * provider could not be asked (503).
 */
export const CHANNEL_FORM_STATUSES = [409, 422, 503] as const;

export async function createChannel(input: ChannelInput): Promise<ChannelAccountJson> {
  const { data } = await api.post<Envelope<ChannelAccountJson>>('/channels', input, {
    handledStatuses: CHANNEL_FORM_STATUSES,
  });
  return data.body;
}

export function useCreateChannel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createChannel,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: channelsKey }),
  });
}
