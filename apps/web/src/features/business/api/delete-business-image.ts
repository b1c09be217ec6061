import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client.ts';
import { sharedQueryKeys } from '@/lib/query-keys.ts';

export async function deleteBusinessImage(): Promise<void> {
  await api.delete('/business/mybusinessimage');
}

export function useDeleteBusinessImage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteBusinessImage,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sharedQueryKeys.me }),
  });
}
