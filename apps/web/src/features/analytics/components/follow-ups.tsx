import { toMajorUnits } from '@switchboard/shared';
import { Alert, Flex } from 'antd';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { failureText } from '@/lib/failure-text.ts';
import { moneyText } from '@/lib/money.ts';
import { type AnalyticsFilter, useInvoiceReport, useReviewReport } from '../api.ts';
import { change, DANGER, Figure, MUTED, PRIMARY } from './figures.tsx';
import { ReportCard, type Row } from './report-card.tsx';
import { SeriesReport } from './series-chart.tsx';

const percent = (part: number, whole: number) => (whole ? `${Math.round((part / whole) * 100)}%` : '—');

/**
 * What came after the conversations: review requests sent and opened, invoices sent and paid (with amounts per
 * currency and how long paying took), each against the period before, as charts, tables and CSV.
 */
export function FollowUps({
  filter,
  first,
  last,
  reviews: reviewsOn,
  invoices: invoicesOn,
}: {
  filter: AnalyticsFilter;
  first: string;
  last: string;
  /** Whether review requests and invoices are on for the business: only their reports are asked for. */
  reviews: boolean;
  invoices: boolean;
}) {
  const reviews = useReviewReport(filter, reviewsOn);
  const invoices = useInvoiceReport(filter, invoicesOn);
  const r = reviews.data;
  const i = invoices.data;
  const problem = reviews.error ?? invoices.error;
  const reviewRows: Row[] = (r?.series ?? []).map((p) => ({
    bucket: p.bucket,
    sent: p.sent,
    clicked: p.clicked,
  }));
  const invoiceRows: Row[] = (i?.series ?? []).map((p) => ({ bucket: p.bucket, sent: p.sent, paid: p.paid }));
  const amountRows: Row[] = (i?.amounts ?? []).map((a) => ({
    currency: a.currency,
    sent: moneyText(a.sent_cents, a.currency),
    paid: moneyText(a.paid_cents, a.currency),
    refunded: moneyText(a.refunded_cents, a.currency),
    net: moneyText(a.net_cents, a.currency),
    previous_sent: moneyText(a.previous_sent_cents, a.currency),
    previous_paid: moneyText(a.previous_paid_cents, a.currency),
    previous_net: moneyText(a.previous_net_cents, a.currency),
  }));
  const refunds = (i?.amounts ?? []).filter((a) => a.refunded_cents > 0);
  const paidAmounts = (i?.amounts ?? [])
    .filter((a) => a.paid_cents > 0)
    .map((a) => moneyText(a.paid_cents, a.currency));
  return (
    <Flex vertical gap={16}>
      {problem && <Alert type="error" showIcon title={failureText(problem)} role="alert" />}
      <Flex gap={12} wrap>
        {reviewsOn && (
          <Figure
            label="Review requests opened"
            value={r ? percent(r.clicked, r.sent) : '—'}
            note={
              r
                ? `${r.clicked} of ${r.sent} sent${r.failed ? `; ${r.failed} could not be sent` : ''}; ${change(r.sent, r.previous_sent)}`
                : ''
            }
          />
        )}
        {invoicesOn && (
          <Figure
            label="Invoices paid"
            value={i ? String(i.paid) : '—'}
            note={
              i
                ? `${paidAmounts.length ? `${paidAmounts.join(' + ')}; ` : ''}${change(i.paid, i.previous_paid)}`
                : ''
            }
          />
        )}
        {invoicesOn && (
          <Figure
            label="Net collected"
            value={i ? i.amounts.map((a) => moneyText(a.net_cents, a.currency)).join(' + ') || '—' : '—'}
            note={
              i
                ? refunds.length
                  ? `after ${refunds.map((a) => moneyText(a.refunded_cents, a.currency)).join(' + ')} refunded in the period`
                  : 'nothing refunded in the period'
                : ''
            }
          />
        )}
        {invoicesOn && (
          <Figure
            label="Days to pay (median)"
            value={i?.median_days_to_pay === null || !i ? '—' : String(i.median_days_to_pay)}
            note={
              i
                ? `${i.sent_and_paid} of ${i.sent} invoices sent in the period paid so far` +
                  (i.previous_median_days_to_pay === null ? '' : `; ${i.previous_median_days_to_pay} before`)
                : ''
            }
          />
        )}
      </Flex>
      <div className="analytics-grid">
        {reviewsOn && (
          <SeriesReport
            title="Review requests"
            file={`review-requests-${first}-${last}`}
            loading={reviews.isPending}
            unit={r?.range.bucket}
            rows={reviewRows}
            kind="line"
            measures={[
              { key: 'sent', name: 'Sent', colour: PRIMARY },
              { key: 'clicked', name: 'Opened', colour: MUTED },
            ]}
          />
        )}
        {invoicesOn && (
          <SeriesReport
            title="Invoices"
            file={`invoices-${first}-${last}`}
            loading={invoices.isPending}
            unit={i?.range.bucket}
            rows={invoiceRows}
            kind="bar"
            measures={[
              { key: 'sent', name: 'Sent', colour: MUTED },
              { key: 'paid', name: 'Paid', colour: PRIMARY },
            ]}
          />
        )}
      </div>
      {invoicesOn && (
        <ReportCard
          title="Invoice amounts"
          file={`invoice-amounts-${first}-${last}`}
          loading={invoices.isPending}
          columns={[
            { key: 'currency', title: 'Currency' },
            { key: 'sent', title: 'Sent', numeric: true },
            { key: 'paid', title: 'Paid', numeric: true },
            { key: 'refunded', title: 'Refunded', numeric: true },
            { key: 'net', title: 'Net collected', numeric: true },
            { key: 'previous_sent', title: 'Sent before', numeric: true },
            { key: 'previous_paid', title: 'Paid before', numeric: true },
            { key: 'previous_net', title: 'Net before', numeric: true },
          ]}
          rows={amountRows}
          chart={
            <ResponsiveContainer width="100%" height={Math.max(160, amountRows.length * 60)}>
              <BarChart
                data={(i?.amounts ?? []).map((a) => ({
                  label: a.currency,
                  // In major units of each currency (dollars, yen, dinars), whatever its decimals.
                  sent: toMajorUnits(a.sent_cents, a.currency),
                  paid: toMajorUnits(a.paid_cents, a.currency),
                  refunded: toMajorUnits(a.refunded_cents, a.currency),
                }))}
                layout="vertical"
                margin={{ left: 8, right: 16 }}
              >
                <CartesianGrid strokeDasharray="3 3" horizontal={false} />
                <XAxis type="number" />
                <YAxis type="category" dataKey="label" width={60} />
                <Tooltip />
                <Legend />
                <Bar isAnimationActive={false} dataKey="sent" name="Sent" fill={MUTED} />
                <Bar isAnimationActive={false} dataKey="paid" name="Paid" fill={PRIMARY} />
                <Bar isAnimationActive={false} dataKey="refunded" name="Refunded" fill={DANGER} />
              </BarChart>
            </ResponsiveContainer>
          }
        />
      )}
    </Flex>
  );
}
