import type {
  CallReportDto,
  EnquiryReportDto,
  InvoiceReportDto,
  ResponseReportDto,
  ReviewReportDto,
} from '@switchboard/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, type Envelope } from '@/lib/api-client.ts';

/** Spec §3's Analytics filter: the date range (two ISO timestamps), time zone, day count and locations. */
export type AnalyticsFilter = {
  dateRange: [string, string];
  timezone: string;
  dayDiff: number;
  locationIds: string[];
};

/** Where the reports are served: `ANALYTICS_URL` from the server's public config, else this server's. */
let analyticsBase = '/api/v1/analytics';
export function setAnalyticsBase(url: string | null | undefined): void {
  if (url) analyticsBase = url.replace(/\/+$/, '');
}

function params(filter: AnalyticsFilter): Record<string, string> {
  return {
    start: filter.dateRange[0],
    end: filter.dateRange[1],
    timezone: filter.timezone,
    dayDiff: String(filter.dayDiff),
    ...(filter.locationIds.length ? { locationIds: filter.locationIds.join(',') } : {}),
  };
}

/** One report; `enabled: false` for the report of a feature turned off for the business (it would be refused). */
function useReport<T>(name: string, filter: AnalyticsFilter, enabled = true) {
  return useQuery({
    queryKey: ['analytics', name, filter],
    enabled,
    queryFn: async ({ signal }) =>
      (
        await api.get<Envelope<T>>(`${analyticsBase}/${name}`, {
          params: params(filter),
          signal,
          baseURL: '',
        })
      ).data.body,
    placeholderData: keepPreviousData,
  });
}

export const useEnquiryReport = (filter: AnalyticsFilter) => useReport<EnquiryReportDto>('enquiries', filter);
export const useCallReport = (filter: AnalyticsFilter, enabled: boolean) =>
  useReport<CallReportDto>('calls', filter, enabled);
export const useResponseReport = (filter: AnalyticsFilter) =>
  useReport<ResponseReportDto>('response-times', filter);
export const useReviewReport = (filter: AnalyticsFilter, enabled: boolean) =>
  useReport<ReviewReportDto>('reviews', filter, enabled);
export const useInvoiceReport = (filter: AnalyticsFilter, enabled: boolean) =>
  useReport<InvoiceReportDto>('invoices', filter, enabled);
