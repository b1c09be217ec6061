import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type Envelope } from '@/lib/api-client.ts';
import type { MessageTemplate, TemplateInput } from '../types.ts';
import { messageTemplatesKey } from './get-message-templates.ts';

export async function createMessageTemplate(input: TemplateInput): Promise<MessageTemplate> {
  const { data } = await api.post<Envelope<MessageTemplate>>('/templates', input);
  return data.body;
}

export function useCreateMessageTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createMessageTemplate,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: messageTemplatesKey }),
  });
}
