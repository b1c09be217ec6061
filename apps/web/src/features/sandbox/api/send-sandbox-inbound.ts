import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type Envelope } from '@/lib/api-client.ts';
import type { SandboxInbound, SandboxInboundResult } from '../types.ts';
import { getConversationQueryOptions } from './get-conversation.ts';

/** A message "from the customer", ingested exactly as a provider's webhook would deliver it. */
export async function sendSandboxInbound(input: SandboxInbound): Promise<SandboxInboundResult> {
  const { data } = await api.post<Envelope<SandboxInboundResult>>('/sandbox/inbound', input);
  return data.body;
}

export function useSendSandboxInbound() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendSandboxInbound,
    onSuccess: (result) =>
      queryClient.invalidateQueries({ queryKey: getConversationQueryOptions(result.enquiry_id).queryKey }),
  });
}
