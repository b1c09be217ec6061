import type { ReviewRequestJson, ReviewRequestRequest, ReviewSettings } from '@switchboard/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type Envelope, type Page } from '@/lib/api-client.ts';

export type { ReviewRequestJson, ReviewSettings };

export type ReviewLocation = {
  id: string;
  name: string | null;
  timezone: string | null;
  review_message: string | null;
  review_link: string | null;
  google_place_id: string | null;
};

const KEYS = {
  all: ['reviews'] as const,
  requests: (q: Record<string, unknown>) => ['reviews', 'requests', q] as const,
  locations: ['reviews', 'locations'] as const,
  settings: (id: string) => ['reviews', 'settings', id] as const,
  google: ['reviews', 'google-locations'] as const,
};

type RequestsPage = Page<ReviewRequestJson> & { stats: { sent: number; clicked: number; rate: number } };

export function useReviewRequests(query: {
  page: number;
  status?: 'sent' | 'clicked';
  location_id?: string;
}) {
  return useQuery({
    queryKey: KEYS.requests(query),
    queryFn: async () =>
      (
        await api.get<Envelope<RequestsPage>>('/business/review-requests', {
          params: { ...query, page_size: 20 },
        })
      ).data.body,
    placeholderData: keepPreviousData,
  });
}

export function useReviewLocations() {
  return useQuery({
    queryKey: KEYS.locations,
    queryFn: async () =>
      (await api.get<Envelope<Page<ReviewLocation>>>('/business/locations', { params: { page_size: 100 } }))
        .data.body.items,
  });
}

export function useReviewSettings(locationId: string) {
  return useQuery({
    queryKey: KEYS.settings(locationId),
    queryFn: async () =>
      (
        await api.get<Envelope<ReviewSettings>>(
          `/business/locations/${encodeURIComponent(locationId)}/review-reminders`,
        )
      ).data.body,
  });
}

export function useGoogleLocations() {
  return useQuery({
    queryKey: KEYS.google,
    queryFn: async () =>
      (
        await api.get<
          Envelope<{
            source: 'google' | 'sandbox' | 'none';
            connected: boolean;
            items: { place_id: string; title: string; address: string | null; review_link: string }[];
          }>
        >('/business/locations/google-locations')
      ).data.body,
  });
}

export function useSaveReviewTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({
      location_id,
      ...body
    }: {
      location_id: string;
      review_message?: string | null;
      review_link?: string | null;
      google_place_id?: string | null;
    }) =>
      api.patch(`/business/locations/${encodeURIComponent(location_id)}/update-review-template`, body, {
        silent: true,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: KEYS.locations }),
  });
}

export function useSaveReviewSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ location_id, ...body }: Partial<ReviewSettings> & { location_id: string }) =>
      (
        await api.put<Envelope<ReviewSettings>>(
          `/business/locations/${encodeURIComponent(location_id)}/review-reminders`,
          body,
          { silent: true },
        )
      ).data.body,
    onSuccess: (data, { location_id }) => queryClient.setQueryData(KEYS.settings(location_id), data),
  });
}

export function useRequestReviews() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: ReviewRequestRequest) =>
      (
        await api.post<
          Envelope<{ sent: number; skipped: { customer_id: string; name: string | null; reason: string }[] }>
        >('/business/review-requests', input)
      ).data.body,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: KEYS.all }),
  });
}

/** Customers matching a search, for choosing whom to ask. */
export async function searchCustomers(q: string) {
  return (
    await api.get<
      Envelope<Page<{ id: string; name: string | null; phone: string | null; email: string | null }>>
    >('/customers', { params: { q, page_size: 20 } })
  ).data.body.items;
}

/** Where the owner lets Switchboard read their Business Profile locations (Google's consent page). */
export async function googleConnectLink(): Promise<string> {
  return (await api.get<Envelope<{ url: string }>>('/business/google/connect-link')).data.body.url;
}
