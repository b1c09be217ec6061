import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, type Envelope } from '@/lib/api-client.ts';

export type PublicConfig = {
  sandbox: boolean;
  marketing_script_url: string | null;
  analytics_url: string | null;
};

export async function getPublicConfig(): Promise<PublicConfig> {
  const { data } = await api.get<Envelope<PublicConfig>>('/public/config', { silent: true });
  return data.body;
}

export const getPublicConfigQueryOptions = () =>
  queryOptions({ queryKey: ['public-config'], queryFn: getPublicConfig, staleTime: Infinity });

export function usePublicConfig() {
  return useQuery(getPublicConfigQueryOptions());
}
