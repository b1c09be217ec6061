import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, type Envelope } from '@/lib/api-client.ts';
import type { MessagePage } from '../types.ts';

/** Polled rather than pushed: the simulator is a testing aid and a 2 s poll is simple and robust. */
export const CONVERSATION_POLL_MS = 2000;

/** The enquiry's latest 100 messages, oldest first. */
export async function getConversation(enquiryId: string, signal?: AbortSignal): Promise<MessagePage> {
  const { data } = await api.get<Envelope<MessagePage>>(
    `/enquiries/${encodeURIComponent(enquiryId)}/messages`,
    { params: { page: 1, page_size: 100 }, signal },
  );
  return data.body;
}

export const getConversationQueryOptions = (enquiryId: string) =>
  queryOptions({
    queryKey: ['sandbox', 'conversation', enquiryId],
    queryFn: ({ signal }) => getConversation(enquiryId, signal),
  });

export function useConversation(enquiryId: string | null) {
  return useQuery({
    ...getConversationQueryOptions(enquiryId ?? ''),
    enabled: enquiryId !== null,
    refetchInterval: CONVERSATION_POLL_MS,
    refetchIntervalInBackground: false,
  });
}
