import type { LocationReach } from '@switchboard/shared';
import { useQuery } from '@tanstack/react-query';
import { api, type Envelope } from '@/lib/api-client.ts';
import { channelsKey } from './get-channels.ts';

export async function getReach(locationId: string, signal?: AbortSignal): Promise<LocationReach> {
  const { data } = await api.get<Envelope<LocationReach>>('/channels/reach', {
    params: { location_id: locationId },
    signal,
  });
  return data.body;
}

/** Every number and address customers reach a location on, and which ones start conversations. */
export function useReach(locationId: string) {
  return useQuery({
    // Under 'channels' so connecting, changing or removing an account (which refreshes those) refreshes it.
    queryKey: [...channelsKey, 'reach', locationId],
    queryFn: ({ signal }) => getReach(locationId, signal),
    staleTime: 60_000,
  });
}
