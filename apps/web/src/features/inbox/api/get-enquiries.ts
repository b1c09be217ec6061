import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { api, type Envelope } from '@/lib/api-client.ts';
import type { EnquiryListParams, EnquiryPage } from '../types.ts';
import { ALL_LOCATIONS, inboxKeys } from './query-keys.ts';

export const ENQUIRY_PAGE_SIZE = 30;

export async function getEnquiries(
  params: EnquiryListParams,
  page: number,
  signal?: AbortSignal,
): Promise<EnquiryPage> {
  const { locationId, channels, snoozed, ...rest } = params;
  const all = locationId === ALL_LOCATIONS;
  const { data } = await api.get<Envelope<EnquiryPage>>('/enquiries', {
    params: {
      ...rest,
      ...(all ? { all_locations: 'true' } : { location_id: locationId }),
      channels: channels.length > 0 ? channels.join(',') : undefined,
      snoozed: snoozed ? 'true' : undefined,
      page,
      page_size: ENQUIRY_PAGE_SIZE,
    },
    signal,
  });
  return data.body;
}

export const getEnquiriesQueryOptions = (params: EnquiryListParams) =>
  infiniteQueryOptions({
    queryKey: inboxKeys.list(params),
    queryFn: ({ pageParam, signal }) => getEnquiries(params, pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: (last: EnquiryPage) => (last.has_more ? last.page + 1 : undefined),
    // Live events keep cached lists current; a refetch is only needed after a reconnect.
    staleTime: 5 * 60_000,
  });

export function useEnquiries(params: EnquiryListParams) {
  return useInfiniteQuery(getEnquiriesQueryOptions(params));
}
