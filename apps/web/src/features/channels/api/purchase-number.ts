import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type Envelope } from '@/lib/api-client.ts';
import { sharedQueryKeys } from '@/lib/query-keys.ts';
import type { PurchasedNumber } from '../types.ts';
import { channelsKey } from './get-channels.ts';

export async function purchaseNumber(locationId: string): Promise<PurchasedNumber> {
  const { data } = await api.post<Envelope<PurchasedNumber>>(
    `/business/locations/purchase-number/${encodeURIComponent(locationId)}`,
    {},
  );
  return data.body;
}

export function usePurchaseNumber() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: purchaseNumber,
    // The number is the location's, which the signed-in user carries; a Twilio account's address changes too.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: sharedQueryKeys.me }),
        queryClient.invalidateQueries({ queryKey: channelsKey }),
      ]),
  });
}
