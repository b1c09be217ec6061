import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client.ts';
import { sharedQueryKeys } from '@/lib/query-keys.ts';
import { locationsKey } from './get-locations.ts';

export async function deleteLocation(id: string): Promise<void> {
  await api.delete(`/business/locations/${encodeURIComponent(id)}`);
}

export function useDeleteLocation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteLocation,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: locationsKey }),
        queryClient.invalidateQueries({ queryKey: sharedQueryKeys.me }),
      ]),
  });
}
