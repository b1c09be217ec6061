import type { SetupChecklistJson } from '@switchboard/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, type Envelope } from '@/lib/api-client.ts';

export const setupKey = ['business-setup'] as const;

export async function getSetup(): Promise<SetupChecklistJson> {
  const { data } = await api.get<Envelope<SetupChecklistJson>>('/business/setup');
  return data.body;
}

/**
 * The checklist ticks itself: it is asked again whenever it comes into view (back from the screen that did an
 * item) and when the window regains focus (an item done in another tab, a number texted from a phone).
 */
export const getSetupQueryOptions = () =>
  queryOptions({
    queryKey: setupKey,
    queryFn: getSetup,
    staleTime: 0,
    refetchOnMount: 'always',
    refetchOnWindowFocus: 'always',
  });

export function useSetup({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...getSetupQueryOptions(), enabled });
}
