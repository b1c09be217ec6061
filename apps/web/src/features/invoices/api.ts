import type {
  InvoiceBrandingDto,
  InvoiceBrandingRequest,
  InvoiceJson,
  InvoicePatchRequest,
  InvoiceRequest,
  InvoicesQuery,
  PublicInvoiceJson,
  SendInvoiceRequest,
  StripeAccountDto,
} from '@switchboard/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api, type Envelope, type Page } from '@/lib/api-client.ts';
import { useSocket } from '@/lib/use-socket.ts';

export type { InvoiceBrandingDto, InvoiceJson, PublicInvoiceJson, StripeAccountDto };

export const invoiceKeys = {
  all: ['invoices'] as const,
  list: (query: InvoicesQuery) => ['invoices', 'list', query] as const,
  ofEnquiry: (enquiryId: string) => ['invoices', 'enquiry', enquiryId] as const,
  branding: ['invoices', 'branding'] as const,
  stripe: ['invoices', 'stripe-account'] as const,
  public: (secret: string) => ['pay', secret] as const,
};

/** Only the filters that are set, as the list's query. */
function clean(query: InvoicesQuery): Record<string, string | number> {
  return Object.fromEntries(
    Object.entries(query).filter(([, v]) => v !== undefined && v !== '' && v !== null),
  ) as Record<string, string | number>;
}

export function useInvoices(query: InvoicesQuery) {
  return useQuery({
    queryKey: invoiceKeys.list(query),
    queryFn: async () =>
      (await api.get<Envelope<Page<InvoiceJson>>>('/business/customer-invoices', { params: clean(query) }))
        .data.body,
    placeholderData: keepPreviousData,
  });
}

/** A conversation's invoices, newest first. */
export function useEnquiryInvoices(enquiryId: string) {
  return useQuery({
    queryKey: invoiceKeys.ofEnquiry(enquiryId),
    queryFn: async () =>
      (
        await api.get<Envelope<Page<InvoiceJson>>>('/business/customer-invoices', {
          params: { enquiry_id: enquiryId, page_size: 20 },
        })
      ).data.body.items,
  });
}

/** Every invoice list on screen follows changes made anywhere (sent, viewed, paid) as they happen. */
export function useLiveInvoices(): void {
  const queryClient = useQueryClient();
  const { socket } = useSocket();
  useEffect(() => {
    if (!socket) return;
    const onUpdated = () => void queryClient.invalidateQueries({ queryKey: invoiceKeys.all });
    socket.on('invoice.updated', onUpdated);
    return () => {
      socket.off('invoice.updated', onUpdated);
    };
  }, [socket, queryClient]);
}

function useInvalidating<I, O>(fn: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: invoiceKeys.all }),
  });
}

const path = (id: string, action = '') => `/business/customer-invoices/${encodeURIComponent(id)}${action}`;

export const useCreateInvoice = () =>
  useInvalidating(
    async (input: InvoiceRequest) =>
      (await api.post<Envelope<InvoiceJson>>('/business/customer-invoices', input, { silent: true })).data
        .body,
  );

export const useUpdateInvoice = () =>
  useInvalidating(
    async ({ id, ...patch }: InvoicePatchRequest & { id: string }) =>
      (await api.put<Envelope<InvoiceJson>>(path(id), patch, { silent: true })).data.body,
  );

export const useSendInvoice = () =>
  useInvalidating(
    async ({ id, ...input }: SendInvoiceRequest & { id: string }) =>
      (await api.post<Envelope<InvoiceJson>>(path(id, '/send'), input, { silent: true })).data.body,
  );

export const useVoidInvoice = () =>
  useInvalidating(
    async (id: string) => (await api.post<Envelope<InvoiceJson>>(path(id, '/void'), {})).data.body,
  );

export const useDeleteInvoice = () =>
  useInvalidating(async (id: string) => void (await api.delete(path(id))));

export const useRefundInvoice = () =>
  useInvalidating(
    async ({ id, amount_cents }: { id: string; amount_cents?: number }) =>
      (
        await api.post<Envelope<InvoiceJson>>(path(id, '/refund'), amount_cents ? { amount_cents } : {}, {
          silent: true,
        })
      ).data.body,
  );

/** Gives back every payment of the invoice that it did not owe (after voiding, another currency, too much). */
export const useRefundUnowed = () =>
  useInvalidating(
    async (id: string) =>
      (await api.post<Envelope<InvoiceJson>>(path(id, '/refund-unowed'), {}, { silent: true })).data.body,
  );

/** Where the staff copy of an invoice's PDF downloads from (same origin, the session's cookie). */
export const invoicePdfUrl = (id: string) => `/api/v1${path(id, '/pdf')}`;
/** The CSV of the list's filters. */
export const exportUrl = (query: InvoicesQuery) => {
  const params = new URLSearchParams(Object.entries(clean(query)).map(([k, v]) => [k, String(v)]));
  params.delete('page');
  params.delete('page_size');
  const qs = params.toString();
  return `/api/v1/business/customer-invoices/export${qs ? `?${qs}` : ''}`;
};

export function useBranding() {
  return useQuery({
    queryKey: invoiceKeys.branding,
    queryFn: async () =>
      (await api.get<Envelope<InvoiceBrandingDto>>('/business/customer-invoices/branding')).data.body,
  });
}

export function useUpdateBranding() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: InvoiceBrandingRequest) =>
      (
        await api.put<Envelope<InvoiceBrandingDto>>('/business/customer-invoices/branding', input, {
          silent: true,
        })
      ).data.body,
    onSuccess: (data) => queryClient.setQueryData(invoiceKeys.branding, data),
  });
}

export function useResetBranding() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () =>
      (await api.delete<Envelope<InvoiceBrandingDto>>('/business/customer-invoices/branding')).data.body,
    onSuccess: (data) => queryClient.setQueryData(invoiceKeys.branding, data),
  });
}

export function useUploadLogo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (file: File) => {
      const form = new FormData();
      form.append('image', file);
      return (
        await api.put<Envelope<InvoiceBrandingDto>>('/business/customer-invoices/branding/icon', form, {
          silent: true,
        })
      ).data.body;
    },
    onSuccess: (data) => queryClient.setQueryData(invoiceKeys.branding, data),
  });
}

export function useStripeAccount() {
  return useQuery({
    queryKey: invoiceKeys.stripe,
    queryFn: async () =>
      (await api.get<Envelope<StripeAccountDto>>('/business/mybusiness/stripe-account')).data.body,
  });
}

export async function stripeConnectLink(): Promise<string> {
  return (
    await api.get<Envelope<{ url: string }>>('/business/mybusiness/stripe-connect-link', { silent: true })
  ).data.body.url;
}

export function useToggleSurcharge() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ location_id, ...body }: { location_id: string; enabled?: boolean; rate?: number }) =>
      (
        await api.post<Envelope<{ location_id: string; enabled: boolean; rate_bps: number }>>(
          `/business/toggle-stripe-charge-rate/${encodeURIComponent(location_id)}`,
          body,
          { silent: true },
        )
      ).data.body,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['locations'] }),
  });
}

/** A sample invoice's PDF in a look (saved or not): opened in a new tab by the branding settings. */
export async function brandingPreviewPdf(look: Record<string, unknown>): Promise<Blob> {
  const { data } = await api.post<Blob>('/business/customer-invoices/branding/preview', look, {
    responseType: 'blob',
    silent: true,
  });
  return data;
}
