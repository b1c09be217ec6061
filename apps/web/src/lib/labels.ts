import type { Label } from '@switchboard/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, type Envelope } from '@/lib/api-client.ts';

/** The business's labels, which enquiries and customers carry (owners manage them under Settings → Labels). */
export const labelsQueryOptions = () =>
  queryOptions({
    queryKey: ['labels'],
    queryFn: async ({ signal }) => {
      const { data } = await api.get<Envelope<{ items: Label[] }>>('/labels', { signal });
      return data.body.items;
    },
    staleTime: 5 * 60_000,
  });

export function useLabels() {
  return useQuery(labelsQueryOptions());
}
