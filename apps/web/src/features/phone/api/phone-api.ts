import type { CallPageBody, CustomerPage, MemberDto, MessagePage } from '@switchboard/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, type Envelope } from '@/lib/api-client.ts';

export const phoneKeys = {
  recent: ['phone', 'recent'] as const,
  contacts: (q: string) => ['phone', 'contacts', q] as const,
  history: (enquiryId: string) => ['phone', 'history', enquiryId] as const,
};

/** The latest calls at the business, for redialling. */
export function useRecentCalls(enabled: boolean) {
  return useQuery({
    queryKey: phoneKeys.recent,
    enabled,
    queryFn: async ({ signal }) =>
      (await api.get<Envelope<CallPageBody>>('/calls', { params: { page_size: 20 }, signal })).data.body,
    staleTime: 10_000,
  });
}

/** Customers whose name, number or email matches what is typed into the dialer. */
export function useContactSearch(q: string) {
  return useQuery({
    queryKey: phoneKeys.contacts(q),
    enabled: q.length >= 2,
    queryFn: async ({ signal }) =>
      (await api.get<Envelope<CustomerPage>>('/customers', { params: { q, page_size: 8 }, signal })).data
        .body,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
}

/** The caller's conversation so far: what the in-call screen shows. */
export function useCallHistory(enquiryId: string | null) {
  return useQuery({
    queryKey: phoneKeys.history(enquiryId ?? ''),
    enabled: Boolean(enquiryId),
    queryFn: async ({ signal }) =>
      (
        await api.get<Envelope<MessagePage>>(`/enquiries/${encodeURIComponent(enquiryId ?? '')}/messages`, {
          params: { page_size: 10 },
          signal,
        })
      ).data.body,
    staleTime: 5_000,
  });
}

/** Teammates a call can be handed to. */
export function useTeammates(enabled: boolean) {
  return useQuery({
    queryKey: ['phone', 'teammates'] as const,
    enabled,
    queryFn: async ({ signal }) =>
      (await api.get<Envelope<{ items: MemberDto[] }>>('/business/members', { signal })).data.body.items,
    staleTime: 60_000,
  });
}

/** Who is available for the location's calls now: the transfer menu marks everyone else as away. */
export function useAvailableAt(locationId: string | null, enabled: boolean) {
  return useQuery({
    queryKey: ['phone', 'available', locationId ?? ''] as const,
    enabled: enabled && Boolean(locationId),
    queryFn: async ({ signal }) =>
      (
        await api.get<Envelope<{ location_id: string; available: string[] }>>('/calls/presence', {
          params: { location_id: locationId },
          signal,
        })
      ).data.body.available,
    staleTime: 5_000,
  });
}
