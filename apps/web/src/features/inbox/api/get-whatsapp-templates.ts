import type { WhatsAppTemplate } from '@switchboard/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, type Envelope } from '@/lib/api-client.ts';
import { inboxKeys } from './query-keys.ts';

export type { WhatsAppTemplate };

/** The approved templates of the WhatsApp Business account this enquiry's conversation goes through. */
export async function getWhatsAppTemplates(enquiryId: string): Promise<WhatsAppTemplate[]> {
  const { data } = await api.get<Envelope<{ items: WhatsAppTemplate[] }>>(
    `/enquiries/${encodeURIComponent(enquiryId)}/whatsapp-templates`,
  );
  return data.body.items;
}

export const getWhatsAppTemplatesQueryOptions = (enquiryId: string) =>
  queryOptions({
    queryKey: [...inboxKeys.templates(enquiryId), 'whatsapp'],
    queryFn: () => getWhatsAppTemplates(enquiryId),
    staleTime: 5 * 60_000,
    retry: false,
  });

/** Fetched when the template picker first opens. */
export function useWhatsAppTemplates(enquiryId: string, enabled: boolean) {
  return useQuery({ ...getWhatsAppTemplatesQueryOptions(enquiryId), enabled });
}
