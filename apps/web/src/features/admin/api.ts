import type {
  AdminBusinessPatchInput,
  AdminNumberPatchInput,
  FeatureFlag,
  PlatformNumber,
} from '@switchboard/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type Envelope, type Page } from '@/lib/api-client.ts';
import { cookieWrite, SELECTION_COOKIES, setAccessToken, writeCookies } from '@/lib/cookies.ts';

export type AdminBusiness = {
  id: string;
  name: string;
  plan: 'trial' | 'monthly' | 'annual';
  status: string;
  trial_end_date: string | null;
  next_invoice_attempt: string | null;
  messages_today: number;
  messages_this_month: number;
  message_limit: number;
  owner: { id: string; full_name: string; email: string } | null;
  created_at: string;
  verified: boolean;
  regulated: boolean;
  regulated_allowed: boolean;
  country: string | null;
  feature_flags: Record<FeatureFlag, boolean>;
  signup_meta: Record<string, unknown> | null;
};

export type AuditEntry = {
  id: string;
  business_id: string | null;
  user: { id: string; full_name: string; email: string } | null;
  action: string;
  target: string | null;
  detail: unknown;
  created_at: string;
};

export const adminKeys = {
  businesses: (q: string, page: number) => ['admin', 'businesses', q, page] as const,
  all: ['admin'] as const,
  audit: (scope: string, businessId: string | null, page: number) =>
    ['audit', scope, businessId, page] as const,
  numbers: (businessId: string) => ['admin', 'numbers', businessId] as const,
};

/** A number the business bought through the platform account, and where it is used. */
export type AdminNumber = PlatformNumber & { location_name: string | null };

export function useAdminNumbers(businessId: string) {
  return useQuery({
    queryKey: adminKeys.numbers(businessId),
    queryFn: async () =>
      (
        await api.get<Envelope<{ items: AdminNumber[] }>>(
          `/admin/businesses/${encodeURIComponent(businessId)}/numbers`,
        )
      ).data.body.items,
  });
}

/** Records where a US number's carrier registration stands; the business's audit log says who did. */
export function useRecordRegistration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, patch }: { id: string; patch: AdminNumberPatchInput }) =>
      (await api.patch<Envelope<AdminNumber>>(`/admin/numbers/${encodeURIComponent(id)}`, patch)).data.body,
    // The drawer's numbers, and its audit log, which now says who recorded it.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['admin'] }),
        queryClient.invalidateQueries({ queryKey: ['audit'] }),
      ]),
  });
}

export function useAdminBusinesses(q: string, page: number) {
  return useQuery({
    queryKey: adminKeys.businesses(q, page),
    queryFn: async () =>
      (
        await api.get<Envelope<Page<AdminBusiness>>>('/admin/businesses', {
          params: { ...(q ? { q } : {}), page, page_size: 20 },
        })
      ).data.body,
    placeholderData: keepPreviousData,
  });
}

export function useUpdateBusiness() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, patch }: { id: string; patch: AdminBusinessPatchInput }) =>
      (await api.patch<Envelope<AdminBusiness>>(`/admin/businesses/${encodeURIComponent(id)}`, patch)).data
        .body,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }),
  });
}

/** Opens the business as an administrator: a token with it selected; every cached query was the old one's. */
export function useOpenBusiness() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) =>
      (
        await api.post<Envelope<{ token: string; business_id: string }>>(
          `/admin/businesses/${encodeURIComponent(id)}/open`,
        )
      ).data.body,
    onSuccess: async ({ token, business_id }) => {
      setAccessToken(token);
      writeCookies([cookieWrite(SELECTION_COOKIES.business, business_id)]);
      await queryClient.invalidateQueries();
    },
  });
}

export function useClearCache() {
  return useMutation({
    mutationFn: async () =>
      (await api.delete<Envelope<{ cleared: true }>>('/business/clear/cache')).data.body,
  });
}

/** The audit log: the owner's business (`business`), or as an administrator any business or all (`admin`). */
export function useAuditLog(scope: 'business' | 'admin', businessId: string | null, page: number) {
  return useQuery({
    queryKey: adminKeys.audit(scope, businessId, page),
    queryFn: async () =>
      (
        await api.get<Envelope<Page<AuditEntry>>>(
          scope === 'admin' ? '/admin/audit-log' : '/business/audit-log',
          {
            params: { page, page_size: 20, ...(businessId ? { business_id: businessId } : {}) },
          },
        )
      ).data.body,
    placeholderData: keepPreviousData,
  });
}
