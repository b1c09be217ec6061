import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client.ts';
import { messageTemplatesKey } from './get-message-templates.ts';

export async function deleteMessageTemplate(id: string): Promise<void> {
  await api.delete(`/templates/${encodeURIComponent(id)}`);
}

export function useDeleteMessageTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteMessageTemplate,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: messageTemplatesKey }),
  });
}
