import { DEFAULT_PAGE_SIZE } from '@switchboard/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, type Envelope, type Page } from '@/lib/api-client.ts';
import { type ContactKind, type ContactRecord, contactPath } from '../types.ts';

/** GET /business/mybusiness/phone and GET /business/mybusiness/email: the same call for two kinds. */
export async function getBusinessContacts<K extends ContactKind>(
  kind: K,
  page: number,
  pageSize = DEFAULT_PAGE_SIZE,
): Promise<Page<ContactRecord<K>>> {
  const { data } = await api.get<Envelope<Page<ContactRecord<K>>>>(contactPath(kind), {
    params: { page, page_size: pageSize },
  });
  return data.body;
}

export const businessContactsKey = (kind: ContactKind) => ['business-contacts', kind] as const;

export const getBusinessContactsQueryOptions = <K extends ContactKind>(kind: K, page: number) =>
  queryOptions({
    queryKey: [...businessContactsKey(kind), { page }],
    queryFn: () => getBusinessContacts(kind, page),
    placeholderData: keepPreviousData,
  });

export function useBusinessContacts<K extends ContactKind>(kind: K, page: number) {
  return useQuery(getBusinessContactsQueryOptions(kind, page));
}
