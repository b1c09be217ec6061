import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type Envelope } from '@/lib/api-client.ts';
import { sharedQueryKeys } from '@/lib/query-keys.ts';
import type { BusinessProfileInput } from '../types.ts';

export async function updateBusiness(input: BusinessProfileInput): Promise<unknown> {
  const { data } = await api.put<Envelope<unknown>>('/business/mybusiness', input);
  return data.body;
}

/** The business lives on the signed-in user, so that is what refreshes. */
export function useUpdateBusiness() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateBusiness,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sharedQueryKeys.me }),
  });
}
