import type { AvailableNumber } from '@switchboard/shared';
import { keepPreviousData, skipToken, useQuery } from '@tanstack/react-query';
import { api, type Envelope } from '@/lib/api-client.ts';

export type NumberSearch = {
  location_id: string;
  country: string;
  area_code?: string;
  in_locality?: string;
  contains?: string;
};
export type NumberSearchResult = {
  country: string;
  number_type: 'local' | 'mobile';
  items: AvailableNumber[];
};

export async function searchNumbers(search: NumberSearch, signal?: AbortSignal): Promise<NumberSearchResult> {
  const { data } = await api.get<Envelope<NumberSearchResult>>('/channels/numbers/available', {
    params: search,
    signal,
  });
  return data.body;
}

/** Numbers for sale through the platform account; asks only once a search is submitted (`search` set). */
export function useNumberSearch(search: NumberSearch | null) {
  return useQuery({
    queryKey: ['numbers-for-sale', search],
    queryFn: search ? ({ signal }) => searchNumbers(search, signal) : skipToken,
    // Numbers sell out: a search shown is re-asked rather than kept.
    staleTime: 0,
    gcTime: 60_000,
    placeholderData: keepPreviousData,
    retry: false,
  });
}
