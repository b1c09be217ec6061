import { z } from 'zod';
import { TimeZoneField } from './fields.ts';

/** The longest period one report covers. */
export const ANALYTICS_MAX_DAYS = 366;

const Instant = (what: string) =>
  z
    .string()
    .max(40)
    .refine(
      (v) => /^\d{4}-\d{2}-\d{2}/.test(v) && !Number.isNaN(new Date(v).getTime()),
      `${what} is not a date or an ISO timestamp, such as 2026-11-01T00:00:00+11:00`,
    );

/**
 * Every report's filter (spec §3's Analytics filter): `start` and `end` (the `dateRange`, two ISO timestamps
 * or days; the range runs from the start of the start day to the end of the end day in `timezone`, or to now
 * when it is one day), `timezone` (default Australia/Melbourne), `locationIds` (comma-separated; none: every
 * location the person works at), `bucket` for the series (default: days up to a month, weeks up to four
 * months, else months). `dayDiff` is the web app's own and is accepted as sent.
 */
export const AnalyticsQuery = z.strictObject({
  start: Instant('The start').optional(),
  end: Instant('The end').optional(),
  timezone: TimeZoneField.optional(),
  locationIds: z
    .string()
    .max(4000)
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .optional(),
  bucket: z.enum(['day', 'week', 'month'], 'The bucket is day, week or month').optional(),
  dayDiff: z.coerce.number().int().min(0).max(ANALYTICS_MAX_DAYS).optional(),
});
export type AnalyticsQuery = z.input<typeof AnalyticsQuery>;

export const ReportRange = z.object({
  start: z.string(),
  end: z.string(),
  timezone: z.string(),
  bucket: z.enum(['day', 'week', 'month']),
  /** The period of the same length just before, which every figure is compared with. */
  previous: z.object({ start: z.string(), end: z.string() }),
  location_ids: z.array(z.string()),
});

/** One row of a breakdown: its key (null: not known), a label to show, this period's count and the previous. */
export const Breakdown = z.object({
  key: z.string().nullable(),
  label: z.string(),
  count: z.number(),
  previous: z.number(),
});
export type BreakdownRow = z.infer<typeof Breakdown>;

export const SeriesPoint = z.object({ bucket: z.string(), count: z.number() });

/** `GET /analytics/enquiries`: enquiries that came in, by where from, and over time. */
export const EnquiryReport = z.object({
  range: ReportRange,
  total: z.number(),
  previous_total: z.number(),
  by_channel: z.array(Breakdown),
  by_source: z.array(Breakdown),
  by_medium: z.array(Breakdown),
  by_campaign: z.array(Breakdown),
  by_location: z.array(Breakdown),
  series: z.array(SeriesPoint),
  /** When enquiries come in: each weekday (0 Sunday) and hour of the day in the report's time zone. */
  heatmap: z.array(z.object({ weekday: z.number(), hour: z.number(), count: z.number() })),
});
export type EnquiryReportDto = z.infer<typeof EnquiryReport>;

/** `GET /analytics/calls`: calls by status and direction, answered and missed. */
export const CallReport = z.object({
  range: ReportRange,
  total: z.number(),
  previous_total: z.number(),
  answered: z.number(),
  missed: z.number(),
  previous_answered: z.number(),
  previous_missed: z.number(),
  by_status: z.array(Breakdown),
  by_direction: z.array(Breakdown),
  series: z.array(SeriesPoint),
});
export type CallReportDto = z.infer<typeof CallReport>;

const Times = z.object({
  count: z.number(),
  median_seconds: z.number().nullable(),
  p90_seconds: z.number().nullable(),
  median_business_seconds: z.number().nullable(),
  p90_business_seconds: z.number().nullable(),
});
export type TimesDto = z.infer<typeof Times>;

/** `GET /analytics/response-times`: how fast the team answers and resolves, raw and within opening hours. */
export const ResponseReport = z.object({
  range: ReportRange,
  first_response: Times.extend({ previous: Times }),
  resolution: Times.extend({ previous: Times }),
  by_staff: z.array(
    z.object({
      user_id: z.string(),
      full_name: z.string(),
      replies: z.number(),
      median_seconds: z.number().nullable(),
      median_business_seconds: z.number().nullable(),
    }),
  ),
  /** Enquiries the assistant answered first, and those it handed to a person. */
  assistant: z.object({
    answered: z.number(),
    handed_off: z.number(),
    previous_answered: z.number(),
    previous_handed_off: z.number(),
  }),
});
export type ResponseReportDto = z.infer<typeof ResponseReport>;

/**
 * `GET /analytics/reviews`: review requests made in the period (sent, or failed to send) and how many of those
 * the customer opened (clicked at any time since).
 */
export const ReviewReport = z.object({
  range: ReportRange,
  sent: z.number(),
  clicked: z.number(),
  failed: z.number(),
  previous_sent: z.number(),
  previous_clicked: z.number(),
  previous_failed: z.number(),
  by_location: z.array(Breakdown),
  series: z.array(z.object({ bucket: z.string(), sent: z.number(), clicked: z.number() })),
});
export type ReviewReportDto = z.infer<typeof ReviewReport>;

/**
 * Invoice amounts of one currency, in cents: sent (their totals), paid (what was paid), refunded (what was given
 * back in the period, whenever it had been paid) and net collected (paid less refunded) in each period.
 */
const InvoiceAmounts = z.object({
  currency: z.string(),
  sent_cents: z.number(),
  paid_cents: z.number(),
  refunded_cents: z.number(),
  net_cents: z.number(),
  previous_sent_cents: z.number(),
  previous_paid_cents: z.number(),
  previous_refunded_cents: z.number(),
  previous_net_cents: z.number(),
});

/**
 * `GET /analytics/invoices`: invoices sent in the period (not those voided since) and invoices paid in it (each
 * by its own date), how many of those sent are paid by now, how long paying took, and the refunds.
 */
export const InvoiceReport = z.object({
  range: ReportRange,
  sent: z.number(),
  paid: z.number(),
  previous_sent: z.number(),
  previous_paid: z.number(),
  /** Of the invoices sent in the period, those paid since. */
  sent_and_paid: z.number(),
  /** From sending to payment, of the invoices paid in the period. */
  median_days_to_pay: z.number().nullable(),
  previous_median_days_to_pay: z.number().nullable(),
  amounts: z.array(InvoiceAmounts),
  series: z.array(z.object({ bucket: z.string(), sent: z.number(), paid: z.number() })),
});
export type InvoiceReportDto = z.infer<typeof InvoiceReport>;
