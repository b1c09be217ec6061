import type { IntakeLimitsResponse } from '@switchboard/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, type Envelope } from '@/lib/api-client.ts';

export const intakeLimitsKey = (locationId: string) => ['intake-limits', locationId] as const;

export async function getIntakeLimits(locationId: string): Promise<IntakeLimitsResponse> {
  const { data } = await api.get<Envelope<IntakeLimitsResponse>>(
    `/business/locations/${encodeURIComponent(locationId)}/limits`,
  );
  return data.body;
}

export const getIntakeLimitsQueryOptions = (locationId: string) =>
  queryOptions({
    queryKey: intakeLimitsKey(locationId),
    queryFn: () => getIntakeLimits(locationId),
    staleTime: 60_000,
    enabled: locationId !== '',
  });

export function useIntakeLimits(locationId: string) {
  return useQuery(getIntakeLimitsQueryOptions(locationId));
}
