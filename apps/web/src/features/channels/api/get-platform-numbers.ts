import type { PlatformNumber } from '@switchboard/shared';
import { useQuery } from '@tanstack/react-query';
import { api, type Envelope } from '@/lib/api-client.ts';
import { channelsKey } from './get-channels.ts';

export type PlatformNumbers = { available: boolean; sandbox: boolean; items: PlatformNumber[] };

export async function getPlatformNumbers(locationId: string, signal?: AbortSignal): Promise<PlatformNumbers> {
  const { data } = await api.get<Envelope<PlatformNumbers>>('/channels/numbers', {
    params: { location_id: locationId },
    signal,
  });
  return data.body;
}

/** Whether numbers can be bought here, and those the location holds with their carrier registration. */
export function usePlatformNumbers(locationId: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    // Under 'channels': buying, releasing or disconnecting refreshes it with the accounts.
    queryKey: [...channelsKey, 'numbers', locationId],
    queryFn: ({ signal }) => getPlatformNumbers(locationId, signal),
    enabled,
  });
}
