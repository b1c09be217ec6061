import type { TrackingNumberDto, TrackingNumberInput } from '@switchboard/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type Envelope } from '@/lib/api-client.ts';

export const trackingNumbersKey = (locationId: string) =>
  ['locations', locationId, 'tracking-numbers'] as const;
const base = (locationId: string) => `/business/locations/${encodeURIComponent(locationId)}/tracking-numbers`;

export function useTrackingNumbers(locationId: string | null) {
  return useQuery({
    queryKey: trackingNumbersKey(locationId ?? ''),
    enabled: Boolean(locationId),
    queryFn: async ({ signal }) =>
      (await api.get<Envelope<{ items: TrackingNumberDto[] }>>(base(locationId ?? ''), { signal })).data.body
        .items,
  });
}

export function useAddTrackingNumber(locationId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (input: TrackingNumberInput) =>
      (
        await api.post<Envelope<TrackingNumberDto>>(base(locationId), input, {
          handledStatuses: [400, 409, 422],
        })
      ).data.body,
    onSuccess: () => client.invalidateQueries({ queryKey: trackingNumbersKey(locationId) }),
  });
}

export function useRemoveTrackingNumber(locationId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      await api.delete(`${base(locationId)}/${encodeURIComponent(id)}`);
    },
    onSuccess: () => client.invalidateQueries({ queryKey: trackingNumbersKey(locationId) }),
  });
}
