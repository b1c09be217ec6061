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

export async function markEnquiryUnread(id: string): Promise<EnquiryRow> {
  const { data } = await api.put<Envelope<EnquiryRow>>(`/enquiries/${encodeURIComponent(id)}/seen`, {
    seen: false,
  });
  return data.body;
}

/** "Mark as unread": back to bold in everyone's list, to come back to later. */
export function useMarkEnquiryUnread() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markEnquiryUnread,
    onMutate: (id: string) => patchCachedEnquiry(queryClient, id, { seen: false }),
    onError: (_error, id) => patchCachedEnquiry(queryClient, id, { seen: true }),
  });
}
