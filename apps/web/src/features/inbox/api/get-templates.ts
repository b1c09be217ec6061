import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, type Envelope } from '@/lib/api-client.ts';
import type { MessageTemplate } from '../types.ts';
import { inboxKeys } from './query-keys.ts';

/** The business's templates with the placeholders already filled for this enquiry's customer. */
export async function getTemplates(enquiryId: string): Promise<MessageTemplate[]> {
  const { data } = await api.get<Envelope<{ items: MessageTemplate[] }>>(
    `/enquiries/${encodeURIComponent(enquiryId)}/templates`,
  );
  return data.body.items;
}

export const getTemplatesQueryOptions = (enquiryId: string) =>
  queryOptions({
    queryKey: inboxKeys.templates(enquiryId),
    queryFn: () => getTemplates(enquiryId),
    staleTime: 5 * 60_000,
  });

/** Fetched when the templates menu first opens. */
export function useTemplates(enquiryId: string, enabled: boolean) {
  return useQuery({ ...getTemplatesQueryOptions(enquiryId), enabled });
}
