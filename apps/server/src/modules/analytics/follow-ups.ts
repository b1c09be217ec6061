import { queryRows } from '@switchboard/db';
import type { AnalyticsQuery, InvoiceReportDto, ReviewReportDto } from '@switchboard/shared';
import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { DbActor } from '../../context.ts';
import { requireBusiness } from '../../plugins/auth.ts';
import { rangeOf, reportScope } from './range.ts';
import { atLocations, breakdown, bucketOf, iso, series } from './reports.ts';

type Query = z.output<typeof AnalyticsQuery>;

const sum = <T>(rows: T[], pick: (row: T) => number | string | null) =>
  rows.reduce((total, row) => total + Number(pick(row) ?? 0), 0);

const days = (seconds: number | string | null) =>
  seconds === null ? null : Math.round((Number(seconds) / 86_400) * 10) / 10;

/** `GET /analytics/reviews`: requests by the day they were made; a click counts for the request it opened. */
export async function reviewReport({ db, actor }: DbActor, query: Query): Promise<ReviewReportDto> {
  const scope = await reportScope(db, requireBusiness(actor), query);
  const where = sql`r.business_id = ${scope.business_id}::uuid and ${atLocations(scope, sql`r.location_id`, true)}`;
  const counts = sql`(count(*) filter (where r.status <> 'failed'))::int as sent,
    (count(*) filter (where r.clicked_at is not null))::int as clicked,
    (count(*) filter (where r.status = 'failed'))::int as failed`;
  type Counts = { sent: number; clicked: number; failed: number };
  const [groups, buckets] = await Promise.all([
    queryRows<Counts & { location_id: string | null; current: boolean }>(
      db,
      sql`select r.location_id, r.sent_at >= ${iso(scope.from)}::timestamptz as current, ${counts}
          from review_requests r
          where ${where} and r.sent_at >= ${iso(scope.previousFrom)}::timestamptz
            and r.sent_at < ${iso(scope.to)}::timestamptz
          group by 1, 2`,
    ),
    queryRows<Counts & { bucket: string }>(
      db,
      sql`select ${bucketOf(scope, sql`r.sent_at`)} as bucket, ${counts}
          from review_requests r
          where ${where} and r.sent_at >= ${iso(scope.from)}::timestamptz and r.sent_at < ${iso(scope.to)}::timestamptz
          group by 1`,
    ),
  ]);
  const now = groups.filter((g) => g.current);
  const before = groups.filter((g) => !g.current);
  const names = new Map(scope.locations.map((l) => [l.id, l.name ?? 'Unknown Location']));
  const sent = series(
    scope,
    buckets.map((b) => ({ bucket: b.bucket, n: b.sent })),
  );
  const clicked = series(
    scope,
    buckets.map((b) => ({ bucket: b.bucket, n: b.clicked })),
  );
  return {
    range: rangeOf(scope),
    sent: sum(now, (g) => g.sent),
    clicked: sum(now, (g) => g.clicked),
    failed: sum(now, (g) => g.failed),
    previous_sent: sum(before, (g) => g.sent),
    previous_clicked: sum(before, (g) => g.clicked),
    previous_failed: sum(before, (g) => g.failed),
    by_location: breakdown(
      groups.map((g) => ({ key: g.location_id, current: g.current, n: g.sent })),
      (k) => (k === null ? 'A deleted location' : (names.get(k) ?? 'Unknown Location')),
    ),
    series: sent.map((p, i) => ({ bucket: p.bucket, sent: p.count, clicked: clicked[i]?.count ?? 0 })),
  };
}

/**
 * `GET /analytics/invoices`: an invoice counts as sent in the period it was sent, unless it was voided (it was
 * withdrawn, nobody owes it), and as paid in the period it was paid; a refund counts in the period it was made.
 * Amounts stay per currency.
 */
export async function invoiceReport({ db, actor }: DbActor, query: Query): Promise<InvoiceReportDto> {
  const scope = await reportScope(db, requireBusiness(actor), query);
  const where = sql`i.business_id = ${scope.business_id}::uuid and ${atLocations(scope, sql`i.location_id`, true)}`;
  const notVoid = sql`i.status <> 'void'`;
  const within = (column: ReturnType<typeof sql>, from: Date) =>
    sql`${column} >= ${iso(from)}::timestamptz and ${column} < ${iso(scope.to)}::timestamptz`;
  const [groups, buckets] = await Promise.all([
    queryRows<{
      kind: 'sent' | 'paid' | 'refunded';
      current: boolean;
      currency: string;
      n: number;
      cents: string | number;
      /** Sent: of them, paid since. Paid: the median seconds from sending. */
      extra: string | number | null;
    }>(
      db,
      sql`select 'sent' as kind, i.sent_at >= ${iso(scope.from)}::timestamptz as current, i.currency,
                 count(*)::int as n, sum(i.total_cents) as cents,
                 count(*) filter (where i.paid_at is not null) as extra
          from invoices i where ${where} and ${notVoid} and ${within(sql`i.sent_at`, scope.previousFrom)}
          group by 1, 2, 3
          union all
          select 'paid', i.paid_at >= ${iso(scope.from)}::timestamptz, i.currency, count(*)::int,
                 sum(i.amount_paid_cents),
                 percentile_cont(0.5) within group (order by extract(epoch from i.paid_at - coalesce(i.sent_at, i.paid_at)))
          from invoices i where ${where} and ${within(sql`i.paid_at`, scope.previousFrom)}
          group by 1, 2, 3
          union all
          select 'refunded', r.refunded_at >= ${iso(scope.from)}::timestamptz, r.currency, count(*)::int,
                 sum(r.amount_cents), null
          from invoice_refunds r join invoices i on i.id = r.invoice_id
          where ${where} and ${within(sql`r.refunded_at`, scope.previousFrom)}
          group by 1, 2, 3`,
    ),
    queryRows<{ kind: 'sent' | 'paid'; bucket: string; n: number }>(
      db,
      sql`select 'sent' as kind, ${bucketOf(scope, sql`i.sent_at`)} as bucket, count(*)::int as n
          from invoices i where ${where} and ${notVoid} and ${within(sql`i.sent_at`, scope.from)} group by 1, 2
          union all
          select 'paid', ${bucketOf(scope, sql`i.paid_at`)}, count(*)::int
          from invoices i where ${where} and ${within(sql`i.paid_at`, scope.from)} group by 1, 2`,
    ),
  ]);
  const of = (kind: 'sent' | 'paid' | 'refunded', current: boolean) =>
    groups.filter((g) => g.kind === kind && g.current === current);
  // The median over every currency: each currency's median, weighted by its count, is close enough only for
  // one currency, so with several the paid invoices are read again as one list.
  const medianDays = async (current: boolean): Promise<number | null> => {
    const paid = of('paid', current);
    if (paid.length <= 1) return days(paid[0]?.extra ?? null);
    const [row] = await queryRows<{ seconds: number | null }>(
      db,
      sql`select percentile_cont(0.5) within group (order by extract(epoch from i.paid_at - coalesce(i.sent_at, i.paid_at))) as seconds
          from invoices i where ${where}
            and ${within(sql`i.paid_at`, current ? scope.from : scope.previousFrom)}
            ${current ? sql`` : sql`and i.paid_at < ${iso(scope.from)}::timestamptz`}`,
    );
    return days(row?.seconds ?? null);
  };
  const currencies = [...new Set(groups.map((g) => g.currency))].sort();
  const cents = (kind: 'sent' | 'paid' | 'refunded', current: boolean, currency: string) =>
    sum(
      of(kind, current).filter((g) => g.currency === currency),
      (g) => g.cents,
    );
  const sentSeries = series(
    scope,
    buckets.filter((b) => b.kind === 'sent'),
  );
  const paidSeries = series(
    scope,
    buckets.filter((b) => b.kind === 'paid'),
  );
  return {
    range: rangeOf(scope),
    sent: sum(of('sent', true), (g) => g.n),
    paid: sum(of('paid', true), (g) => g.n),
    previous_sent: sum(of('sent', false), (g) => g.n),
    previous_paid: sum(of('paid', false), (g) => g.n),
    sent_and_paid: sum(of('sent', true), (g) => g.extra),
    median_days_to_pay: await medianDays(true),
    previous_median_days_to_pay: await medianDays(false),
    amounts: currencies.map((currency) => ({
      currency,
      sent_cents: cents('sent', true, currency),
      paid_cents: cents('paid', true, currency),
      refunded_cents: cents('refunded', true, currency),
      net_cents: cents('paid', true, currency) - cents('refunded', true, currency),
      previous_sent_cents: cents('sent', false, currency),
      previous_paid_cents: cents('paid', false, currency),
      previous_refunded_cents: cents('refunded', false, currency),
      previous_net_cents: cents('paid', false, currency) - cents('refunded', false, currency),
    })),
    series: sentSeries.map((p, i) => ({ bucket: p.bucket, sent: p.count, paid: paidSeries[i]?.count ?? 0 })),
  };
}
