import type { PublicHolidayPlacesDto, PublicHolidaysDto, PublicHolidaysQuery } from '@switchboard/shared';
import { useQuery } from '@tanstack/react-query';
import { api, type Envelope } from '@/lib/api-client.ts';

/** The countries and regions whose public holidays can be added (asked for once the owner opens the choice). */
export function usePublicHolidayPlaces(enabled: boolean) {
  return useQuery({
    queryKey: ['public-holidays', 'places'],
    queryFn: async () =>
      (await api.get<Envelope<PublicHolidayPlacesDto>>('/public-holidays/places')).data.body,
    enabled,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** A place's public holidays of one year. */
export async function fetchPublicHolidays(query: PublicHolidaysQuery): Promise<PublicHolidaysDto['items']> {
  const { data } = await api.get<Envelope<PublicHolidaysDto>>('/public-holidays', {
    params: query,
    silent: true,
  });
  return data.body.items;
}
