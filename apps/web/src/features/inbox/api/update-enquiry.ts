import type { EnquiryStatus } from '@switchboard/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type Envelope } from '@/lib/api-client.ts';
import type { EnquiryRow } from '../types.ts';
import { counterChanges } from '../utils/counters.ts';
import { bumpCounts, writeEnquiry } from '../utils/query-cache.ts';

export type EnquiryPatch = {
  status?: EnquiryStatus;
  assigned_to?: string | null;
  title?: string | null;
  /** An ISO time to snooze until; null wakes it now. */
  snoozed_until?: string | null;
  labels?: string[];
};

export async function updateEnquiry(id: string, patch: EnquiryPatch): Promise<EnquiryRow> {
  const { data } = await api.patch<Envelope<EnquiryRow>>(`/enquiries/${encodeURIComponent(id)}`, patch);
  return data.body;
}

type Variables = { enquiry: EnquiryRow; patch: EnquiryPatch };

/**
 * Close, reopen, assign to me, unassign: shown at once (the row leaves the tab it no longer belongs to, the
 * counts move by one) and put back if the server refuses; the server's counts.updated then sets the exact
 * numbers.
 */
export function useUpdateEnquiry(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ enquiry, patch }: Variables) => updateEnquiry(enquiry.id, patch),
    onMutate: ({ enquiry, patch }: Variables) => {
      const next: EnquiryRow = { ...enquiry, ...patch };
      writeEnquiry(queryClient, next, userId);
      bumpCounts(queryClient, counterChanges(enquiry, next), enquiry.location_id);
      return { next };
    },
    onError: (_error, { enquiry }, context) => {
      if (!context) return;
      writeEnquiry(queryClient, enquiry, userId);
      bumpCounts(queryClient, counterChanges(context.next, enquiry), enquiry.location_id);
    },
    onSuccess: (row) => writeEnquiry(queryClient, row, userId),
  });
}
