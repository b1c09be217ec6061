import type { Customer, CustomerPage, CustomerPatchRequest } from '@switchboard/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type Envelope } from '@/lib/api-client.ts';
import { notify } from '@/lib/notifier.ts';

export const customerKeys = {
  all: ['customers'] as const,
  list: (q: string, page: number) => [...customerKeys.all, 'list', q, page] as const,
  detail: (id: string) => [...customerKeys.all, 'detail', id] as const,
};

export async function getCustomer(id: string, signal?: AbortSignal): Promise<Customer> {
  const { data } = await api.get<Envelope<Customer>>(`/customers/${encodeURIComponent(id)}`, {
    signal,
    handledStatuses: [404],
  });
  return data.body;
}

export function useCustomer(id: string) {
  return useQuery({
    queryKey: customerKeys.detail(id),
    queryFn: ({ signal }) => getCustomer(id, signal),
    staleTime: 30_000,
  });
}

export const CUSTOMERS_PAGE_SIZE = 25;

export function useCustomers(q: string, page: number) {
  return useQuery({
    queryKey: customerKeys.list(q, page),
    queryFn: async ({ signal }) => {
      const { data } = await api.get<Envelope<CustomerPage>>('/customers', {
        params: { q: q || undefined, page, page_size: CUSTOMERS_PAGE_SIZE },
        signal,
      });
      return data.body;
    },
    placeholderData: keepPreviousData,
  });
}

/** Changes refresh the customer everywhere: their profile, the list, and the inbox rows that show them. */
function useRefreshCustomers() {
  const queryClient = useQueryClient();
  return (customer: Customer) => {
    queryClient.setQueryData(customerKeys.detail(customer.id), customer);
    void queryClient.invalidateQueries({ queryKey: customerKeys.all });
    void queryClient.invalidateQueries({ queryKey: ['enquiries'] });
  };
}

export function useUpdateCustomer(id: string) {
  const refresh = useRefreshCustomers();
  return useMutation({
    mutationFn: async (patch: CustomerPatchRequest) => {
      // A clash or a bad number is said beside the field.
      const { data } = await api.patch<Envelope<Customer>>(`/customers/${encodeURIComponent(id)}`, patch, {
        handledStatuses: [409, 422],
      });
      return data.body;
    },
    onSuccess: (customer) => {
      refresh(customer);
      notify.success('Customer saved');
    },
  });
}

export function useMergeCustomers(id: string) {
  const refresh = useRefreshCustomers();
  return useMutation({
    mutationFn: async (otherId: string) => {
      const { data } = await api.post<Envelope<Customer>>(`/customers/${encodeURIComponent(id)}/merge`, {
        other_id: otherId,
      });
      return data.body;
    },
    onSuccess: (customer) => {
      refresh(customer);
      notify.success('Customers merged');
    },
  });
}

/** A note about the customer, added or deleted; the answer is the whole profile with its notes. */
export function useCustomerNotes(id: string) {
  const refresh = useRefreshCustomers();
  const base = `/customers/${encodeURIComponent(id)}/notes`;
  const add = useMutation({
    mutationFn: async (body: string) => {
      // A note refused (too long, say) is said under the box that still holds it.
      const { data } = await api.post<Envelope<Customer>>(base, { body }, { handledStatuses: [400, 422] });
      return data.body;
    },
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: async (noteId: string) => {
      const { data } = await api.delete<Envelope<Customer>>(`${base}/${encodeURIComponent(noteId)}`);
      return data.body;
    },
    onSuccess: (customer) => {
      refresh(customer);
      notify.success('Note deleted');
    },
  });
  return { add, remove };
}
