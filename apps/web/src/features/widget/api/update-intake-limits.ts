import type { IntakeLimits, IntakeLimitsResponse } from '@switchboard/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type Envelope } from '@/lib/api-client.ts';
import { intakeLimitsKey } from './get-intake-limits.ts';

export async function updateIntakeLimits({
  locationId,
  ...limits
}: IntakeLimits & { locationId: string }): Promise<IntakeLimitsResponse> {
  const { data } = await api.put<Envelope<IntakeLimitsResponse>>(
    `/business/locations/${encodeURIComponent(locationId)}/limits`,
    limits,
  );
  return data.body;
}

export function useUpdateIntakeLimits() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateIntakeLimits,
    onSuccess: (saved) => queryClient.setQueryData(intakeLimitsKey(saved.location_id), saved),
  });
}
