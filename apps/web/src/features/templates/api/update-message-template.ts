import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type Envelope } from '@/lib/api-client.ts';
import type { MessageTemplate, TemplateInput } from '../types.ts';
import { messageTemplatesKey } from './get-message-templates.ts';

export async function updateMessageTemplate({
  id,
  ...input
}: TemplateInput & { id: string }): Promise<MessageTemplate> {
  const { data } = await api.put<Envelope<MessageTemplate>>(`/templates/${encodeURIComponent(id)}`, input);
  return data.body;
}

export function useUpdateMessageTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateMessageTemplate,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: messageTemplatesKey }),
  });
}
