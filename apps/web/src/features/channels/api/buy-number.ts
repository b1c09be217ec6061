import type { ChannelAccountJson, PlatformNumber } from '@switchboard/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type Envelope } from '@/lib/api-client.ts';
import { sharedQueryKeys } from '@/lib/query-keys.ts';
import { channelsKey } from './get-channels.ts';

export type BoughtNumber = { number: PlatformNumber; channel: ChannelAccountJson };

export async function buyNumber(input: { location_id: string; phone_number: string }): Promise<BoughtNumber> {
  const { data } = await api.post<Envelope<BoughtNumber>>('/channels/numbers', input);
  return data.body;
}

export function useBuyNumber() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: buyNumber,
    // The number becomes the location's (which the signed-in user carries) and its Twilio account.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: sharedQueryKeys.me }),
        queryClient.invalidateQueries({ queryKey: channelsKey }),
      ]),
  });
}
