import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type Envelope } from '@/lib/api-client.ts';
import { type ContactInput, type ContactKind, type ContactRecord, contactPath } from '../types.ts';
import { businessContactsKey } from './get-business-contacts.ts';

export async function createBusinessContact<K extends ContactKind>(
  kind: K,
  input: ContactInput<K>,
): Promise<ContactRecord<K>> {
  const { data } = await api.post<Envelope<ContactRecord<K>>>(contactPath(kind), input);
  return data.body;
}

export function useCreateBusinessContact<K extends ContactKind>(kind: K) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ContactInput<K>) => createBusinessContact(kind, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: businessContactsKey(kind) }),
  });
}
