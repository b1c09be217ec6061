import type { ChannelAccountJson } from '@switchboard/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, type Envelope, type Page } from '@/lib/api-client.ts';

export const channelsKey = ['channels'] as const;

export async function getChannels(locationId: string): Promise<ChannelAccountJson[]> {
  const { data } = await api.get<Envelope<Page<ChannelAccountJson>>>('/channels', {
    params: { location_id: locationId, page_size: 100 },
  });
  return data.body.items;
}

export const getChannelsQueryOptions = (locationId: string) =>
  queryOptions({
    queryKey: [...channelsKey, 'list', locationId],
    queryFn: () => getChannels(locationId),
  });

export function useChannels(locationId: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...getChannelsQueryOptions(locationId), enabled });
}
