import type { WidgetSettings, WidgetSettingsInput } from '@switchboard/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type Envelope } from '@/lib/api-client.ts';
import { widgetSettingsKey } from './get-widget-settings.ts';

export async function updateWidgetSettings({
  locationId,
  ...input
}: WidgetSettingsInput & { locationId: string }): Promise<WidgetSettings> {
  const { data } = await api.put<Envelope<WidgetSettings>>(
    `/business/locations/${encodeURIComponent(locationId)}/widget`,
    input,
  );
  return data.body;
}

export function useUpdateWidgetSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateWidgetSettings,
    onSuccess: (settings) => queryClient.setQueryData(widgetSettingsKey(settings.location_id), settings),
  });
}
