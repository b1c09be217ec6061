import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type Envelope } from '@/lib/api-client.ts';
import { type ContactInput, type ContactKind, type ContactRecord, contactPath } from '../types.ts';
import { businessContactsKey } from './get-business-contacts.ts';

export async function updateBusinessContact<K extends ContactKind>(
  kind: K,
  id: string,
  input: ContactInput<K>,
): Promise<ContactRecord<K>> {
  const { data } = await api.put<Envelope<ContactRecord<K>>>(
    `${contactPath(kind)}/${encodeURIComponent(id)}`,
    input,
  );
  return data.body;
}

export function useUpdateBusinessContact<K extends ContactKind>(kind: K) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: ContactInput<K> }) =>
      updateBusinessContact(kind, id, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: businessContactsKey(kind) }),
  });
}
