import { useQuery } from '@tanstack/react-query';
import type { EnquiryListParams } from '../types.ts';
import { getEnquiries } from './get-enquiries.ts';
import { ALL_LOCATIONS, inboxKeys } from './query-keys.ts';

export type Elsewhere = { locationId: string; count: number }[];

/**
 * A search that found nothing at this location, asked across all of the person's locations: how many it finds
 * at each other one (from the first page; `more` when there were more than that).
 */
export function useMatchesElsewhere(params: EnquiryListParams, enabled: boolean) {
  const wide: EnquiryListParams = { ...params, locationId: ALL_LOCATIONS };
  return useQuery({
    queryKey: [...inboxKeys.all, 'elsewhere', wide],
    queryFn: async ({ signal }) => {
      const page = await getEnquiries(wide, 1, signal);
      const counts = new Map<string, number>();
      for (const row of page.items)
        if (row.location_id !== params.locationId)
          counts.set(row.location_id, (counts.get(row.location_id) ?? 0) + 1);
      const places: Elsewhere = [...counts].map(([locationId, count]) => ({ locationId, count }));
      return { places, more: page.has_more };
    },
    enabled,
  });
}
