import type { SetupChecklistJson } from '@switchboard/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type Envelope } from '@/lib/api-client.ts';
import { setupKey } from './get-setup.ts';

export async function updateSetup(dismissed: boolean): Promise<SetupChecklistJson> {
  const { data } = await api.put<Envelope<SetupChecklistJson>>('/business/setup', { dismissed });
  return data.body;
}

/** The owner puts the checklist away (it leaves the inbox) or brings it back from Settings. */
export function useUpdateSetup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateSetup,
    onSuccess: (setup) => queryClient.setQueryData(setupKey, setup),
  });
}
