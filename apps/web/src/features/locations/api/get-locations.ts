import { DEFAULT_PAGE_SIZE } from '@switchboard/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, type Envelope, type Page } from '@/lib/api-client.ts';
import type { Location } from '../types.ts';

export type LocationsQuery = { page: number; pageSize?: number };

export const locationsKey = ['locations'] as const;

export async function getLocations({
  page,
  pageSize = DEFAULT_PAGE_SIZE,
}: LocationsQuery): Promise<Page<Location>> {
  const { data } = await api.get<Envelope<Page<Location>>>('/business/locations', {
    params: { page, page_size: pageSize },
  });
  return data.body;
}

export const getLocationsQueryOptions = (query: LocationsQuery) =>
  queryOptions({
    queryKey: [...locationsKey, 'list', query],
    queryFn: () => getLocations(query),
    placeholderData: keepPreviousData,
  });

export function useLocations(query: LocationsQuery) {
  return useQuery(getLocationsQueryOptions(query));
}
