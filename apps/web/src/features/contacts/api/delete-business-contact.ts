import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client.ts';
import { type ContactKind, contactPath } from '../types.ts';
import { businessContactsKey } from './get-business-contacts.ts';

export async function deleteBusinessContact(kind: ContactKind, id: string): Promise<void> {
  await api.delete(`${contactPath(kind)}/${encodeURIComponent(id)}`);
}

export function useDeleteBusinessContact(kind: ContactKind) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteBusinessContact(kind, id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: businessContactsKey(kind) }),
  });
}
