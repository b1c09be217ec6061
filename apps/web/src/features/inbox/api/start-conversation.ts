import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type Envelope } from '@/lib/api-client.ts';
import type { ComposeChannel, MessageDto } from '../types.ts';
import { inboxKeys } from './query-keys.ts';

export type StartConversationInput = {
  channel: ComposeChannel;
  phone?: string;
  email?: string;
  name?: string;
  message: string;
  subject?: string;
  locationId?: string;
};

export type StartConversationResult = { enquiry_id: string; message: MessageDto };

export async function startConversation(input: StartConversationInput): Promise<StartConversationResult> {
  const { data } = await api.post<Envelope<StartConversationResult>>('/messages', {
    channel: input.channel,
    ...(input.channel === 'email' ? { email: input.email } : { phone: input.phone }),
    ...(input.name ? { name: input.name } : {}),
    message: input.message,
    meta: input.subject ? { subject: input.subject } : {},
    client_id: crypto.randomUUID(),
    ...(input.locationId ? { location_id: input.locationId } : {}),
  });
  return data.body;
}

/** POST /messages: a new conversation with a contact (or the next message in their open one). */
export function useStartConversation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: startConversation,
    // The live events bring the row too; asking again covers a socket that is reconnecting.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: inboxKeys.lists() }),
  });
}
