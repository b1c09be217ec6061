import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type Envelope } from '@/lib/api-client.ts';
import type { Attachment, EnquiryRow, InboxUser, MessageDto } from '../types.ts';
import { optimisticMessage } from '../utils/message-cache.ts';
import { dropOptimisticMessage, writeEnquiry, writeMessage } from '../utils/query-cache.ts';

export type SendMessageInput = {
  enquiry: EnquiryRow;
  clientId: string;
  message: string;
  subject?: string;
  attachments: Attachment[];
};

export async function sendMessage(input: SendMessageInput): Promise<MessageDto> {
  const { data } = await api.post<Envelope<MessageDto>>(
    `/enquiries/${encodeURIComponent(input.enquiry.id)}/messages`,
    {
      message: input.message,
      attachments: input.attachments.map((a) => a.id),
      meta: input.subject ? { subject: input.subject } : {},
      client_id: input.clientId,
    },
  );
  return data.body;
}

/**
 * A reply appears in the thread at once as queued and the conversation moves to the top of the list; the
 * server's copy (from this answer or its message.created echo, whichever comes first) replaces it by
 * client_id. A refused send (daily limit, 422) is taken back; the API client has already said why.
 */
export function useSendMessage(user: InboxUser) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendMessage,
    onMutate: (input: SendMessageInput) => {
      const now = new Date();
      writeMessage(
        queryClient,
        optimisticMessage({
          clientId: input.clientId,
          enquiryId: input.enquiry.id,
          customerId: input.enquiry.customer_id,
          channel: input.enquiry.channel,
          message: input.message,
          subject: input.subject,
          attachments: input.attachments,
          user,
          now,
        }),
      );
      const preview = input.message.trim() || (input.attachments.length > 0 ? 'Attachment' : '');
      writeEnquiry(
        queryClient,
        { ...input.enquiry, last_message: preview, last_message_at: now.toISOString(), seen: true },
        user.id,
      );
    },
    onSuccess: (message) => writeMessage(queryClient, message),
    onError: (_error, input) => dropOptimisticMessage(queryClient, input.enquiry.id, input.clientId),
  });
}
