import type { Customer } from '@switchboard/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, type Envelope } from '@/lib/api-client.ts';
import { inboxKeys } from './query-keys.ts';

export async function getCustomer(id: string, signal?: AbortSignal): Promise<Customer> {
  const { data } = await api.get<Envelope<Customer>>(`/customers/${encodeURIComponent(id)}`, {
    signal,
    handledStatuses: [403, 404],
  });
  return data.body;
}

export const getCustomerQueryOptions = (id: string) =>
  queryOptions({
    queryKey: inboxKeys.customer(id),
    queryFn: ({ signal }) => getCustomer(id, signal),
    staleTime: 30_000,
  });

/** The customer beside a conversation: their details and every enquiry of theirs. */
export function useCustomer(id: string) {
  return useQuery(getCustomerQueryOptions(id));
}
