import type { ReplyRoute } from '@switchboard/shared';
import { useQuery } from '@tanstack/react-query';
import { api, type Envelope } from '@/lib/api-client.ts';
import { inboxKeys } from './query-keys.ts';

export async function getReplyRoute(enquiryId: string, signal?: AbortSignal): Promise<ReplyRoute> {
  const { data } = await api.get<Envelope<ReplyRoute>>(
    `/enquiries/${encodeURIComponent(enquiryId)}/reply-route`,
    {
      signal,
      // The composer simply says nothing when this cannot be read.
      silent: true,
    },
  );
  return data.body;
}

/**
 * The channels whose replies may go another way: a website chat (the visitor comes and goes), a call (by SMS),
 * a form (by email, when the person left an address).
 */
const ROUTED = new Set(['widget', 'phone_call', 'web_form', 'contact_form']);

/**
 * Where a reply goes now (the open chat, SMS, or waiting in the chat), checked again every 20 s and when the
 * page comes back into view.
 */
export function useReplyRoute(enquiryId: string, channel: string) {
  return useQuery({
    queryKey: inboxKeys.replyRoute(enquiryId),
    queryFn: ({ signal }) => getReplyRoute(enquiryId, signal),
    enabled: ROUTED.has(channel),
    refetchInterval: 20_000,
    refetchOnWindowFocus: true,
    staleTime: 5_000,
  });
}
