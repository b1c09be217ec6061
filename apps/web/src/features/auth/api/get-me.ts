import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, type Envelope } from '@/lib/api-client.ts';
import { sharedQueryKeys } from '@/lib/query-keys.ts';
import type { Me } from '../types.ts';

/** Feature flags arrive after the user; if that call fails the app carries on without them (spec §7). */
async function getFeatureFlags(): Promise<Record<string, unknown>> {
  try {
    const { data } = await api.get<Envelope<Record<string, unknown>>>('/business/mybusiness/features', {
      silent: true,
    });
    return data.body ?? {};
  } catch {
    return {};
  }
}

export async function getMe(): Promise<Me> {
  // Spec §7: GET /user/me has no timeout.
  const { data } = await api.get<Envelope<Omit<Me, 'features'>>>('/user/me', { timeout: 0 });
  return { ...data.body, features: await getFeatureFlags() };
}

export const getMeQueryOptions = () =>
  queryOptions({ queryKey: sharedQueryKeys.me, queryFn: getMe, staleTime: 60_000 });

export function useMe() {
  return useQuery(getMeQueryOptions());
}
