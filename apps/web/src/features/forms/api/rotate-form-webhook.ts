import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type Envelope } from '@/lib/api-client.ts';
import type { FormKind, FormWebhook } from '../types.ts';
import { getFormWebhookQueryOptions } from './get-form-webhook.ts';

export async function rotateFormWebhook(kind: FormKind): Promise<FormWebhook> {
  const { data } = await api.post<Envelope<FormWebhook>>(`/business/mybusiness/${kind}-webhook/rotate`);
  return data.body;
}

export function useRotateFormWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: rotateFormWebhook,
    onSuccess: (webhook) =>
      queryClient.setQueryData(getFormWebhookQueryOptions(webhook.kind).queryKey, webhook),
  });
}
