import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type Envelope } from '@/lib/api-client.ts';
import { sharedQueryKeys } from '@/lib/query-keys.ts';
import type { Location, LocationInput } from '../types.ts';
import { locationsKey } from './get-locations.ts';

export async function createLocation(input: LocationInput): Promise<Location> {
  const { data } = await api.post<Envelope<Location>>('/business/locations', input);
  return data.body;
}

export function useCreateLocation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createLocation,
    // The location switcher reads locations from the user, so both refresh.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: locationsKey }),
        queryClient.invalidateQueries({ queryKey: sharedQueryKeys.me }),
      ]),
  });
}
