import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, type Envelope } from '@/lib/api-client.ts';

export type InboundAddress = { location_id: string; address: string };

export async function getInboundAddress(locationId: string): Promise<InboundAddress> {
  const { data } = await api.get<Envelope<InboundAddress>>('/email/inbound-address', {
    params: { location_id: locationId },
  });
  return data.body;
}

export const getInboundAddressQueryOptions = (locationId: string) =>
  queryOptions({
    queryKey: ['email', 'inbound-address', locationId],
    queryFn: () => getInboundAddress(locationId),
    staleTime: 5 * 60_000,
  });

export function useInboundAddress(locationId: string) {
  return useQuery(getInboundAddressQueryOptions(locationId));
}
