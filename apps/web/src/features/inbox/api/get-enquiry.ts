import { type QueryClient, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type Envelope } from '@/lib/api-client.ts';
import type { EnquiryPage, EnquiryRow, Paged } from '../types.ts';
import { findEnquiry } from '../utils/enquiry-cache.ts';
import { inboxKeys } from './query-keys.ts';

export async function getEnquiry(id: string): Promise<EnquiryRow> {
  // A missing enquiry is said where it would have been shown, not in a notice too.
  const { data } = await api.get<Envelope<EnquiryRow>>(`/enquiries/${encodeURIComponent(id)}`, {
    handledStatuses: [403, 404],
  });
  return data.body;
}

/** The row the list already has, so the header draws at once while the enquiry itself loads. */
export function cachedEnquiryRow(queryClient: QueryClient, id: string): EnquiryRow | undefined {
  for (const [, data] of queryClient.getQueriesData<Paged<EnquiryPage>>({ queryKey: inboxKeys.lists() })) {
    const row = findEnquiry(data, id);
    if (row) return row;
  }
  return undefined;
}

export const getEnquiryQueryOptions = (id: string) =>
  queryOptions({ queryKey: inboxKeys.detail(id), queryFn: () => getEnquiry(id), staleTime: 30_000 });

export function useEnquiry(id: string) {
  const queryClient = useQueryClient();
  return useQuery({
    ...getEnquiryQueryOptions(id),
    placeholderData: () => cachedEnquiryRow(queryClient, id),
  });
}
