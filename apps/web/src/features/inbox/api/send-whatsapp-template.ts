import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type Envelope } from '@/lib/api-client.ts';
import type { MessageDto } from '../types.ts';
import { writeMessage } from '../utils/query-cache.ts';

export type SendWhatsAppTemplateInput = {
  enquiryId: string;
  name: string;
  language: string;
  variables: string[];
};

export async function sendWhatsAppTemplate(input: SendWhatsAppTemplateInput): Promise<MessageDto> {
  const { data } = await api.post<Envelope<MessageDto>>(
    `/enquiries/${encodeURIComponent(input.enquiryId)}/whatsapp-template`,
    { name: input.name, language: input.language, variables: input.variables },
  );
  return data.body;
}

/** Sends an approved template (the only thing WhatsApp allows 24 hours after the customer last wrote). */
export function useSendWhatsAppTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendWhatsAppTemplate,
    onSuccess: (message) => writeMessage(queryClient, message),
  });
}
