import type { MentionList } from '@switchboard/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type Envelope } from '@/lib/api-client.ts';
import { inboxKeys } from './query-keys.ts';

export async function markMentionsRead(enquiryId: string): Promise<{ unread: number }> {
  const { data } = await api.put<Envelope<{ unread: number }>>(
    `/enquiries/${encodeURIComponent(enquiryId)}/mentions/read`,
  );
  return data.body;
}

/** The person opened where they were mentioned: those mentions are read, here at once and on the server. */
export function useMarkMentionsRead(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markMentionsRead,
    onMutate: (enquiryId: string) =>
      queryClient.setQueryData<MentionList>(inboxKeys.mentions(), (list) =>
        list
          ? {
              unread: list.items.filter((m) => !m.read && m.enquiry.id !== enquiryId).length,
              items: list.items.map((m) =>
                m.enquiry.id === enquiryId && m.note.mentions.includes(userId) ? { ...m, read: true } : m,
              ),
            }
          : list,
      ),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: inboxKeys.mentions() }),
  });
}
