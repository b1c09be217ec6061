import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, type Envelope } from '@/lib/api-client.ts';
import type { MessageTemplate } from '../types.ts';

export const messageTemplatesKey = ['message-templates'] as const;

/** Every template of the business, for every location, sorted by name. */
export async function getMessageTemplates(): Promise<MessageTemplate[]> {
  const { data } = await api.get<Envelope<{ items: MessageTemplate[] }>>('/templates');
  return data.body.items;
}

export const getMessageTemplatesQueryOptions = () =>
  queryOptions({ queryKey: messageTemplatesKey, queryFn: getMessageTemplates });

export function useMessageTemplates() {
  return useQuery(getMessageTemplatesQueryOptions());
}
