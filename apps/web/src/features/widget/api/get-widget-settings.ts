import type { WidgetSettings } from '@switchboard/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, type Envelope } from '@/lib/api-client.ts';

export const widgetSettingsKey = (locationId: string) => ['widget-settings', locationId] as const;

export async function getWidgetSettings(locationId: string): Promise<WidgetSettings> {
  const { data } = await api.get<Envelope<WidgetSettings>>(
    `/business/locations/${encodeURIComponent(locationId)}/widget`,
  );
  return data.body;
}

export const getWidgetSettingsQueryOptions = (locationId: string) =>
  queryOptions({
    queryKey: widgetSettingsKey(locationId),
    queryFn: () => getWidgetSettings(locationId),
    staleTime: 60_000,
  });

export function useWidgetSettings(locationId: string) {
  return useQuery(getWidgetSettingsQueryOptions(locationId));
}
