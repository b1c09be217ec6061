import type { SendCollision } from '@switchboard/shared';
import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { api, type Envelope } from '@/lib/api-client.ts';
import { isApiError } from '@/lib/api-error.ts';
import { failureText } from '@/lib/failure-text.ts';
import type { Attachment, EnquiryRow, InboxUser, MessageDto } from '../types.ts';
import { holdLocalMessage, releaseLocalMessage } from '../utils/local-messages.ts';
import { optimisticMessage } from '../utils/message-cache.ts';
import { dropOptimisticMessage, writeEnquiry, writeMessage } from '../utils/query-cache.ts';
import { dailyUsageKey } from './daily-usage.ts';
import { inboxKeys } from './query-keys.ts';

export type SendMessageInput = {
  /** Who sends it: the optimistic copy shows them as its sender. */
  user: InboxUser;
  enquiry: EnquiryRow;
  clientId: string;
  message: string;
  subject?: string;
  attachments: Attachment[];
  /** The assistant wrote or rewrote the reply. */
  ai?: { interaction: 'ai_generated' | 'ai_rewritten'; original: string | null } | null;
  /**
   * The newest message of the thread when the person began writing (null: none): the server refuses the reply
   * when a teammate or the assistant answered after it. Undefined checks nothing.
   */
  seenMessageId?: string | null;
  /** Send even though someone else answered meanwhile (the person read it). */
  sendAnyway?: boolean;
  /** Someone else answered meanwhile: nothing was sent, and the reply is handed back to the composer. */
  onCollision?: (collision: SendCollision, input: SendMessageInput) => void;
};

/** The server's "someone else answered since you last looked" refusal, when that is what the error is. */
export function sendCollision(error: unknown): SendCollision | null {
  if (!isApiError(error) || error.status !== 409 || error.code !== 'replied_meanwhile') return null;
  const body = (error.response as { data?: SendCollision } | undefined)?.data;
  return body?.reply ? body : null;
}

export async function sendMessage(input: SendMessageInput): Promise<MessageDto> {
  const { data } = await api.post<Envelope<MessageDto>>(
    `/enquiries/${encodeURIComponent(input.enquiry.id)}/messages`,
    {
      message: input.message,
      attachments: input.attachments.map((a) => a.id),
      meta: input.subject ? { subject: input.subject } : {},
      client_id: input.clientId,
      ...(input.seenMessageId !== undefined ? { seen_message_id: input.seenMessageId } : {}),
      ...(input.sendAnyway ? { send_anyway: true } : {}),
      ...(input.ai
        ? {
            ai_interaction: input.ai.interaction,
            ...(input.ai.original ? { ai_original: input.ai.original } : {}),
          }
        : {}),
    },
    // The message itself says it was not sent, and why: no second notice.
    { silent: true },
  );
  return data.body;
}

/** Sends that failed, by client id, kept so "Retry" sends exactly the same again (same id: never twice). */
const failedSends = new Map<string, SendMessageInput>();

function optimistic(input: SendMessageInput) {
  return optimisticMessage({
    clientId: input.clientId,
    enquiryId: input.enquiry.id,
    customerId: input.enquiry.customer_id,
    channel: input.enquiry.channel,
    message: input.message,
    subject: input.subject,
    attachments: input.attachments,
    user: input.user,
  });
}

function markFailed(queryClient: QueryClient, input: SendMessageInput, error: unknown) {
  failedSends.set(input.clientId, input);
  const failed: MessageDto = {
    ...optimistic(input),
    status: 'failed',
    error: `Not sent. ${failureText(error)}`,
  };
  holdLocalMessage(failed);
  writeMessage(queryClient, failed);
}

/** A message shown as not sent by this browser (it never reached the server), which "Retry" can send again. */
export const canRetrySend = (message: MessageDto) =>
  message.status === 'failed' && message.client_id !== null && failedSends.has(message.client_id);

/**
 * A reply appears in the thread at once as queued and the conversation moves to the top of the list; the
 * server's copy (from this answer or its message.created echo, whichever comes first) replaces it by
 * client_id. A send that fails stays in the thread marked as not sent, with the reason and a retry.
 */
export function useSendMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendMessage,
    onMutate: (input: SendMessageInput) => {
      const now = new Date();
      failedSends.delete(input.clientId);
      dropOptimisticMessage(queryClient, input.enquiry.id, input.clientId);
      const mine = optimistic(input);
      holdLocalMessage(mine);
      writeMessage(queryClient, mine);
      const preview = input.message.trim() || (input.attachments.length > 0 ? 'Attachment' : '');
      writeEnquiry(
        queryClient,
        { ...input.enquiry, last_message: preview, last_message_at: now.toISOString(), seen: true },
        input.user.id,
      );
    },
    onSuccess: (message, input) => {
      releaseLocalMessage(input.clientId);
      writeMessage(queryClient, message);
    },
    onError: (error, input) => {
      const collision = sendCollision(error);
      if (collision && input.onCollision) {
        // Nothing was sent: the reply goes back to its writer with what the other person said.
        releaseLocalMessage(input.clientId);
        dropOptimisticMessage(queryClient, input.enquiry.id, input.clientId);
        void queryClient.invalidateQueries({ queryKey: inboxKeys.messages(input.enquiry.id) });
        // The list showed the reply as the conversation's latest: it shows what was really said last again.
        void queryClient.invalidateQueries({ queryKey: inboxKeys.lists() });
        void queryClient.invalidateQueries({ queryKey: inboxKeys.detail(input.enquiry.id) });
        input.onCollision(collision, input);
        return;
      }
      // A retry from the thread of a reply someone else answered meanwhile is sent as it is: the reason shown
      // beside it says who answered, and Retry is the person choosing to send it anyway.
      markFailed(
        queryClient,
        collision ? { ...input, sendAnyway: true, onCollision: undefined } : input,
        error,
      );
    },
    // The composer's "messages left today" follows each send.
    onSettled: () => void queryClient.invalidateQueries({ queryKey: dailyUsageKey }),
  });
}

/** "Retry" and "Discard" on a message that was not sent. */
export function useFailedSend() {
  const send = useSendMessage();
  const queryClient = useQueryClient();
  const retry = useCallback(
    (clientId: string) => {
      const input = failedSends.get(clientId);
      if (input) send.mutate(input);
    },
    [send],
  );
  const discard = useCallback(
    (message: MessageDto) => {
      if (!message.client_id) return;
      failedSends.delete(message.client_id);
      releaseLocalMessage(message.client_id);
      dropOptimisticMessage(queryClient, message.enquiry_id, message.client_id);
    },
    [queryClient],
  );
  return { retry, discard, retrying: send.isPending };
}
