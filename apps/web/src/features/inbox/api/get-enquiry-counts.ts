import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, type Envelope } from '@/lib/api-client.ts';
import type { LocationCounts } from '../types.ts';
import { ALL_LOCATIONS, inboxKeys } from './query-keys.ts';

export async function getEnquiryCounts(locationId: string): Promise<LocationCounts> {
  const { data } = await api.get<Envelope<LocationCounts>>('/enquiries/counts', {
    // 'all': every location of the business together.
    params: locationId === ALL_LOCATIONS ? { all_locations: 'true' } : { location_id: locationId },
  });
  return data.body;
}

export const getEnquiryCountsQueryOptions = (locationId: string) =>
  queryOptions({
    queryKey: inboxKeys.counts(locationId),
    queryFn: () => getEnquiryCounts(locationId),
    staleTime: 5 * 60_000,
  });

/** The location's counters; the signed-in user's copy shows until the fresh ones arrive. */
export function useEnquiryCounts(locationId: string, placeholder?: LocationCounts) {
  return useQuery({ ...getEnquiryCountsQueryOptions(locationId), placeholderData: placeholder });
}
