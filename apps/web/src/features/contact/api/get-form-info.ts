import type { FormPageInfo } from '@switchboard/shared';
import { useQuery } from '@tanstack/react-query';
import { api, type Envelope } from '@/lib/api-client.ts';

/** The business a contact page writes to (public, beside the API like the form's own address). */
export async function getFormInfo(token: string, signal?: AbortSignal): Promise<FormPageInfo> {
  const { data } = await api.get<Envelope<FormPageInfo>>(`/webhooks/forms/${encodeURIComponent(token)}`, {
    baseURL: '/',
    signal,
    // An unknown link is the page's own message, not a notice.
    handledStatuses: [404],
  });
  return data.body;
}

export function useFormInfo(token: string | null) {
  return useQuery({
    queryKey: ['contact-form', token],
    queryFn: ({ signal }) => getFormInfo(token ?? '', signal),
    enabled: Boolean(token),
    staleTime: 5 * 60_000,
  });
}
