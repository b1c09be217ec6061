import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type Envelope } from '@/lib/api-client.ts';
import type { ChannelAccount, ChannelInput } from '../types.ts';
import { channelsKey } from './get-channels.ts';

export async function createChannel(input: ChannelInput): Promise<ChannelAccount> {
  const { data } = await api.post<Envelope<ChannelAccount>>('/channels', input);
  return data.body;
}

export function useCreateChannel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createChannel,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: channelsKey }),
  });
}
