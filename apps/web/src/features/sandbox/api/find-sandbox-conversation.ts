import { queryOptions, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api, type Envelope } from '@/lib/api-client.ts';
import type { SandboxChannel } from '../types.ts';
import { CONVERSATION_POLL_MS } from './get-conversation.ts';

export type SandboxCustomer = { location_id: string; channel: SandboxChannel; identity: string };

/**
 * The conversation the simulated customer has at the location on that channel, whoever wrote first (the
 * business's text, a missed call's text-back); null when they have none yet.
 */
export async function findSandboxConversation(
  customer: SandboxCustomer,
  signal?: AbortSignal,
): Promise<string | null> {
  const { data } = await api.get<Envelope<{ enquiry_id: string | null }>>('/sandbox/conversation', {
    params: customer,
    signal,
    // A number still being typed is not one yet: the simulator shows no conversation, not an error notice.
    handledStatuses: [400, 422],
  });
  return data.body.enquiry_id;
}

export const findSandboxConversationQueryOptions = (customer: SandboxCustomer) =>
  queryOptions({
    queryKey: ['sandbox', 'customer', customer.location_id, customer.channel, customer.identity],
    queryFn: ({ signal }) => findSandboxConversation(customer, signal),
    retry: false,
  });

/** Asked once typing pauses, then polled like the conversation itself. */
const SETTLE_MS = 400;

export function useSandboxConversation(customer: Partial<SandboxCustomer>) {
  const wanted =
    customer.location_id && customer.channel && customer.identity?.trim()
      ? { location_id: customer.location_id, channel: customer.channel, identity: customer.identity.trim() }
      : null;
  const key = wanted ? JSON.stringify(wanted) : null;
  const [settled, setSettled] = useState<SandboxCustomer | null>(wanted);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for `wanted`, a new object each render.
  useEffect(() => {
    const timer = setTimeout(() => setSettled(wanted), SETTLE_MS);
    return () => clearTimeout(timer);
  }, [key]);
  return useQuery({
    ...findSandboxConversationQueryOptions(settled ?? { location_id: '', channel: 'sms', identity: '' }),
    enabled: settled !== null,
    refetchInterval: CONVERSATION_POLL_MS,
    refetchIntervalInBackground: false,
  });
}
