import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type Envelope } from '@/lib/api-client.ts';
import type { EnquiryRow } from '../types.ts';
import { patchCachedEnquiry } from '../utils/query-cache.ts';

export async function markEnquirySeen(id: string): Promise<EnquiryRow> {
  const { data } = await api.put<Envelope<EnquiryRow>>(`/enquiries/${encodeURIComponent(id)}/seen`, {
    seen: true,
  });
  return data.body;
}

/** Spec §4: marking an enquiry read sets seen to true — in the list at once, on the server after. */
export function useMarkEnquirySeen() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markEnquirySeen,
    onMutate: (id: string) => patchCachedEnquiry(queryClient, id, { seen: true }),
  });
}
