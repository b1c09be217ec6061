import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type Envelope } from '@/lib/api-client.ts';
import { notify } from '@/lib/notifier.ts';
import type { EnquiryRow } from '../types.ts';
import { writeEnquiry } from '../utils/query-cache.ts';

export type BulkPatch = {
  status?: 'open' | 'closed';
  assigned_to?: string | null;
  add_labels?: string[];
  remove_labels?: string[];
};

/** One change to the enquiries selected in the list; each lands in the lists as it comes back. */
export function useBulkUpdate(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { ids: string[]; patch: BulkPatch; done: string }) => {
      const { data } = await api.post<Envelope<{ items: EnquiryRow[] }>>('/enquiries/bulk', {
        ids: input.ids,
        patch: input.patch,
      });
      return data.body.items;
    },
    onSuccess: (rows, input) => {
      for (const row of rows) writeEnquiry(queryClient, row, userId);
      notify.success(input.done);
    },
  });
}
