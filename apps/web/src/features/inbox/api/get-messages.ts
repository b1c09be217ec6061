import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { api, type Envelope } from '@/lib/api-client.ts';
import type { MessagePage, Paged } from '../types.ts';
import { localMessagesOf } from '../utils/local-messages.ts';
import { keepLocalMessages } from '../utils/message-cache.ts';
import { inboxKeys } from './query-keys.ts';

export const MESSAGE_PAGE_SIZE = 30;

/** Newest page first; within a page, oldest to newest. */
export async function getMessages(
  enquiryId: string,
  page: number,
  signal?: AbortSignal,
): Promise<MessagePage> {
  const { data } = await api.get<Envelope<MessagePage>>(
    `/enquiries/${encodeURIComponent(enquiryId)}/messages`,
    {
      params: { page, page_size: MESSAGE_PAGE_SIZE },
      signal,
      // The enquiry view says the enquiry is missing; the thread says nothing more about it.
      handledStatuses: [403, 404],
    },
  );
  return data.body;
}

export const getMessagesQueryOptions = (enquiryId: string) =>
  infiniteQueryOptions({
    queryKey: inboxKeys.messages(enquiryId),
    queryFn: async ({ pageParam, signal, client, queryKey }) => {
      const page = await getMessages(enquiryId, pageParam, signal);
      // The newest page fetched again keeps the replies only this browser has (on their way, or not sent).
      return pageParam === 1
        ? keepLocalMessages(
            page,
            client.getQueryData<Paged<MessagePage>>(queryKey),
            localMessagesOf(enquiryId),
          )
        : page;
    },
    initialPageParam: 1,
    getNextPageParam: (last: MessagePage) => (last.has_more ? last.page + 1 : undefined),
    staleTime: 5 * 60_000,
  });

export function useMessages(enquiryId: string) {
  return useInfiniteQuery(getMessagesQueryOptions(enquiryId));
}
