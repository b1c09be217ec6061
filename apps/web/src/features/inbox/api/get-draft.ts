import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, type Envelope } from '@/lib/api-client.ts';
import type { Draft } from '../types.ts';
import { inboxKeys } from './query-keys.ts';

export async function getDraft(enquiryId: string): Promise<Draft | null> {
  const { data } = await api.get<Envelope<Draft | null>>(`/enquiries/${encodeURIComponent(enquiryId)}/draft`);
  return data.body ?? null;
}

export const getDraftQueryOptions = (enquiryId: string) =>
  queryOptions({
    queryKey: inboxKeys.draft(enquiryId),
    queryFn: () => getDraft(enquiryId),
    // Read when the enquiry opens; after that the composer holds the text and saves it.
    staleTime: 0,
    gcTime: 0,
  });

export function useDraft(enquiryId: string) {
  return useQuery(getDraftQueryOptions(enquiryId));
}
