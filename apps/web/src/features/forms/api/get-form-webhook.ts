import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, type Envelope } from '@/lib/api-client.ts';
import type { FormKind, FormWebhook } from '../types.ts';

export const formWebhookKey = (kind: FormKind) => ['form-webhook', kind] as const;

export async function getFormWebhook(kind: FormKind): Promise<FormWebhook> {
  const { data } = await api.get<Envelope<FormWebhook>>(`/business/mybusiness/${kind}-webhook`);
  return data.body;
}

export const getFormWebhookQueryOptions = (kind: FormKind) =>
  queryOptions({ queryKey: formWebhookKey(kind), queryFn: () => getFormWebhook(kind), staleTime: Infinity });

export function useFormWebhook(kind: FormKind, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...getFormWebhookQueryOptions(kind), enabled });
}
