import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type Envelope } from '@/lib/api-client.ts';
import { sharedQueryKeys } from '@/lib/query-keys.ts';
import type { Location, LocationInput } from '../types.ts';
import { locationsKey } from './get-locations.ts';

export async function updateLocation({
  id,
  ...patch
}: Partial<LocationInput> & { id: string }): Promise<Location> {
  const { data } = await api.patch<Envelope<Location>>(
    `/business/locations/${encodeURIComponent(id)}`,
    patch,
  );
  return data.body;
}

export function useUpdateLocation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateLocation,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: locationsKey }),
        queryClient.invalidateQueries({ queryKey: sharedQueryKeys.me }),
      ]),
  });
}
