import type { ChannelAccountJson } from '@switchboard/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type Envelope } from '@/lib/api-client.ts';
import type { ChannelInput } from '../types.ts';
import { channelsKey } from './get-channels.ts';

export async function createChannel(input: ChannelInput): Promise<ChannelAccountJson> {
  const { data } = await api.post<Envelope<ChannelAccountJson>>('/channels', input);
  return data.body;
}

export function useCreateChannel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createChannel,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: channelsKey }),
  });
}
