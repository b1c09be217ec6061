import { api } from '@/lib/api-client.ts';

/** The composer was emptied: nothing is left to restore. */
export async function deleteDraft(enquiryId: string): Promise<void> {
  await api.delete(`/enquiries/${encodeURIComponent(enquiryId)}/draft`, { silent: true });
}
