import {
  ANALYTICS_TIMEZONE,
  addDays,
  type BreakdownRow,
  calendarDayIn,
  daysBetween,
  defaultAnalyticsRange,
  endOfDayIn,
  type FeatureFlag,
  formatInZone,
  startOfDayIn,
  type TimesDto,
} from '@switchboard/shared';
import { Alert, Card, DatePicker, Flex, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { failureText } from '@/lib/failure-text.ts';
import { type AnalyticsFilter, useCallReport, useEnquiryReport, useResponseReport } from '../api.ts';
import { change, duration, Figure, MUTED, PRIMARY } from './figures.tsx';
import { FollowUps } from './follow-ups.tsx';
import { type Column, ReportCard, type Row } from './report-card.tsx';
import { SeriesReport } from './series-chart.tsx';

const ZONES = [
  'Australia/Melbourne',
  'Australia/Sydney',
  'Australia/Brisbane',
  'Australia/Adelaide',
  'Australia/Perth',
  'Australia/Hobart',
  'Australia/Darwin',
  'Pacific/Auckland',
  'UTC',
];
/** A filter for the days `first`–`last` in `timezone` (spec §3: two ISO timestamps, and the day count). */
function filterFor(first: string, last: string, timezone: string, locationIds: string[]): AnalyticsFilter {
  return {
    dateRange: [
      formatInZone(startOfDayIn(first, timezone), timezone),
      formatInZone(endOfDayIn(last, timezone), timezone),
    ],
    timezone,
    dayDiff: daysBetween(first, last),
    locationIds,
  };
}

function presets(timezone: string): { label: string; value: [Dayjs, Dayjs] }[] {
  const today = calendarDayIn(new Date(), timezone);
  const day = (d: string) => dayjs(d);
  const monthStart = `${today.slice(0, 7)}-01`;
  const lastMonthEnd = addDays(monthStart, -1);
  return [
    { label: 'Today', value: [day(today), day(today)] },
    { label: 'Last 7 days', value: [day(addDays(today, -6)), day(today)] },
    { label: 'Last 30 days', value: [day(addDays(today, -29)), day(today)] },
    { label: 'This month', value: [day(monthStart), day(today)] },
    { label: 'Last month', value: [day(`${lastMonthEnd.slice(0, 7)}-01`), day(lastMonthEnd)] },
    { label: 'Last 90 days', value: [day(addDays(today, -89)), day(today)] },
  ];
}

const BREAKDOWN_COLUMNS: Column[] = [
  { key: 'label', title: 'Name' },
  { key: 'count', title: 'This period', numeric: true },
  { key: 'previous', title: 'Period before', numeric: true },
];
const rowsOf = (list: BreakdownRow[] | undefined): Row[] =>
  (list ?? []).map((r) => ({ label: r.label, count: r.count, previous: r.previous }));

function BreakdownChart({ rows, compare = true }: { rows: Row[]; compare?: boolean }) {
  return (
    <ResponsiveContainer width="100%" height={Math.max(200, rows.length * 36)}>
      <BarChart data={rows} layout="vertical" margin={{ left: 8, right: 16 }}>
        <CartesianGrid strokeDasharray="3 3" horizontal={false} />
        <XAxis type="number" allowDecimals={false} />
        <YAxis type="category" dataKey="label" width={120} />
        <Tooltip />
        <Legend />
        <Bar isAnimationActive={false} dataKey="count" name="This period" fill={PRIMARY} />
        {compare && <Bar isAnimationActive={false} dataKey="previous" name="Period before" fill={MUTED} />}
      </BarChart>
    </ResponsiveContainer>
  );
}

const timesRows = (label: string, t: (TimesDto & { previous: TimesDto }) | undefined): Row[] =>
  t
    ? [
        {
          figure: label,
          count: t.count,
          median: duration(t.median_seconds),
          p90: duration(t.p90_seconds),
          median_open: duration(t.median_business_seconds),
          p90_open: duration(t.p90_business_seconds),
          previous_median: duration(t.previous.median_seconds),
        },
      ]
    : [];

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const HOURS = Array.from({ length: 24 }, (_, h) => h);

/** When enquiries come in: a weekday × hour grid, darker for more. */
function Heatmap({ cells }: { cells: { weekday: number; hour: number; count: number }[] }) {
  const max = Math.max(1, ...cells.map((c) => c.count));
  const at = (weekday: number, hour: number) =>
    cells.find((c) => c.weekday === weekday && c.hour === hour)?.count ?? 0;
  return (
    <div style={{ overflowX: 'auto' }}>
      <table style={{ borderCollapse: 'separate', borderSpacing: 2, fontSize: 11 }}>
        <thead>
          <tr>
            <th />
            {HOURS.map((h) => (
              <th key={h} style={{ fontWeight: 400, width: 22 }}>
                {h % 3 === 0 ? h : ''}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {WEEKDAYS.map((name, d) => (
            <tr key={name}>
              <th style={{ fontWeight: 400, textAlign: 'right', paddingRight: 4 }}>{name}</th>
              {HOURS.map((h) => {
                const n = at(d, h);
                return (
                  <td
                    key={h}
                    title={`${name} ${h}:00 — ${n}`}
                    style={{
                      width: 22,
                      height: 18,
                      borderRadius: 3,
                      background: n
                        ? `rgba(30, 117, 255, ${0.15 + (0.85 * n) / max})`
                        : 'var(--ant-color-fill-quaternary)',
                    }}
                  />
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * The analytics page: for any period, time zone and locations, where enquiries and calls come from and how fast
 * the team answers, each figure against the period before, as a chart or a table, and as CSV.
 */
export function AnalyticsPage({
  locations,
  businessTimezone,
  features,
}: {
  locations: { id: string; name: string | null }[];
  businessTimezone: string;
  /** The business's features: the reports of one turned off are neither asked for nor shown. */
  features: Record<FeatureFlag, boolean>;
}) {
  const [filter, setFilter] = useState<AnalyticsFilter>(() => {
    const d = defaultAnalyticsRange();
    return { ...d, locationIds: [] };
  });
  const enquiries = useEnquiryReport(filter);
  const calls = useCallReport(filter, features.calls);
  const responses = useResponseReport(filter);
  const first = calendarDayIn(filter.dateRange[0], filter.timezone);
  const last = calendarDayIn(filter.dateRange[1], filter.timezone);
  const zones = [...new Set([ANALYTICS_TIMEZONE, businessTimezone, ...ZONES])];
  const problem = enquiries.error ?? calls.error ?? responses.error;

  const e = enquiries.data;
  const c = calls.data;
  const r = responses.data;
  const seriesRows: Row[] = (e?.series ?? []).map((p) => ({ bucket: p.bucket, count: p.count }));
  const callSeriesRows: Row[] = (c?.series ?? []).map((p) => ({ bucket: p.bucket, count: p.count }));
  const staffRows: Row[] = (r?.by_staff ?? []).map((s) => ({
    name: s.full_name,
    replies: s.replies,
    median: duration(s.median_seconds),
    median_open: duration(s.median_business_seconds),
  }));
  const heatRows: Row[] = (e?.heatmap ?? []).map((h) => ({
    weekday: WEEKDAYS[h.weekday] ?? String(h.weekday),
    hour: h.hour,
    count: h.count,
  }));
  const answeredRate = c?.total ? Math.round((c.answered / c.total) * 100) : null;

  return (
    <Flex vertical gap={16}>
      <Card size="small">
        <Flex gap={12} wrap align="center">
          <DatePicker.RangePicker
            aria-label="Period"
            allowClear={false}
            value={[dayjs(first), dayjs(last)]}
            presets={presets(filter.timezone)}
            disabledDate={(d) => d.isAfter(dayjs().add(1, 'day'))}
            onChange={(range) => {
              if (!range?.[0] || !range[1]) return;
              setFilter(
                filterFor(
                  range[0].format('YYYY-MM-DD'),
                  range[1].format('YYYY-MM-DD'),
                  filter.timezone,
                  filter.locationIds,
                ),
              );
            }}
          />
          <Select
            aria-label="Time zone"
            style={{ width: 210 }}
            value={filter.timezone}
            options={zones.map((z) => ({ value: z, label: z.replace('_', ' ') }))}
            onChange={(timezone) => setFilter(filterFor(first, last, timezone, filter.locationIds))}
          />
          {locations.length > 1 && (
            <Select
              aria-label="Locations"
              mode="multiple"
              allowClear
              placeholder="All locations"
              style={{ minWidth: 220, flex: '1 1 220px' }}
              value={filter.locationIds}
              options={locations.map((l) => ({ value: l.id, label: l.name ?? 'Unknown Location' }))}
              onChange={(locationIds) => setFilter({ ...filter, locationIds })}
            />
          )}
        </Flex>
      </Card>
      {problem && <Alert type="error" showIcon title={failureText(problem)} role="alert" />}
      <Flex gap={12} wrap>
        <Figure
          label="Enquiries"
          value={e ? String(e.total) : '—'}
          note={e ? change(e.total, e.previous_total) : ''}
        />
        {features.calls && (
          <Figure
            label="Calls answered"
            value={answeredRate === null ? '—' : `${answeredRate}%`}
            note={c ? `${c.answered} of ${c.total} calls; ${c.missed} missed` : ''}
          />
        )}
        <Figure
          label="First reply (median, opening hours)"
          value={duration(r?.first_response.median_business_seconds ?? null)}
          note={
            !r
              ? ''
              : r.first_response.count === 0
                ? 'No first replies in this period'
                : `${duration(r.first_response.median_seconds)} in plain hours; ${duration(r.first_response.previous.median_business_seconds)} before`
          }
        />
        {features.assistant && (
          <Figure
            label="Answered by the assistant"
            value={r ? String(r.assistant.answered) : '—'}
            note={r ? `${r.assistant.handed_off} handed to the team` : ''}
          />
        )}
      </Flex>
      <SeriesReport
        title="Enquiries over time"
        file={`enquiries-${first}-${last}`}
        loading={enquiries.isPending}
        unit={e?.range.bucket}
        rows={seriesRows}
        kind="line"
        measures={[{ key: 'count', name: 'Enquiries', colour: PRIMARY }]}
      />
      <div className="analytics-grid">
        {(
          [
            ['Enquiries by channel', 'channels', e?.by_channel],
            ['Enquiries by source', 'sources', e?.by_source],
            ['Enquiries by medium', 'media', e?.by_medium],
            ['Enquiries by campaign', 'campaigns', e?.by_campaign],
            ['Enquiries by location', 'locations', e?.by_location],
            ...(features.calls ? ([['Calls by status', 'call-statuses', c?.by_status]] as const) : []),
          ] as const
        ).map(([title, file, list]) => (
          <ReportCard
            key={file}
            title={title}
            file={`${file}-${first}-${last}`}
            loading={enquiries.isPending || (features.calls && calls.isPending)}
            columns={BREAKDOWN_COLUMNS}
            rows={rowsOf(list)}
            chart={<BreakdownChart rows={rowsOf(list)} />}
          />
        ))}
      </div>
      {features.calls && (
        <SeriesReport
          title="Calls over time"
          file={`calls-${first}-${last}`}
          loading={calls.isPending}
          unit={c?.range.bucket}
          rows={callSeriesRows}
          kind="bar"
          height={220}
          measures={[{ key: 'count', name: 'Calls', colour: PRIMARY }]}
        />
      )}
      <ReportCard
        title="How fast the team answers"
        file={`response-times-${first}-${last}`}
        loading={responses.isPending}
        columns={[
          { key: 'figure', title: 'Figure' },
          { key: 'count', title: 'How many', numeric: true },
          { key: 'median', title: 'Median', numeric: true },
          { key: 'p90', title: '90th percentile', numeric: true },
          { key: 'median_open', title: 'Median, opening hours', numeric: true },
          { key: 'p90_open', title: '90th percentile, opening hours', numeric: true },
          { key: 'previous_median', title: 'Median before', numeric: true },
        ]}
        rows={[...timesRows('First reply', r?.first_response), ...timesRows('Resolved', r?.resolution)]}
        chart={
          <ResponsiveContainer width="100%" height={220}>
            <BarChart
              data={[
                {
                  name: 'First reply',
                  median: (r?.first_response.median_business_seconds ?? 0) / 60,
                  p90: (r?.first_response.p90_business_seconds ?? 0) / 60,
                },
                {
                  name: 'Resolved',
                  median: (r?.resolution.median_business_seconds ?? 0) / 60,
                  p90: (r?.resolution.p90_business_seconds ?? 0) / 60,
                },
              ]}
              margin={{ left: -8, right: 16 }}
            >
              <CartesianGrid strokeDasharray="3 3" />
              <XAxis dataKey="name" />
              <YAxis unit=" min" />
              <Tooltip formatter={(v) => duration(Math.round(Number(v) * 60))} />
              <Legend />
              <Bar isAnimationActive={false} dataKey="median" name="Median (opening hours)" fill={PRIMARY} />
              <Bar isAnimationActive={false} dataKey="p90" name="90th percentile" fill={MUTED} />
            </BarChart>
          </ResponsiveContainer>
        }
      />
      <ReportCard
        title="Replies by team member"
        file={`team-${first}-${last}`}
        loading={responses.isPending}
        columns={[
          { key: 'name', title: 'Team member' },
          { key: 'replies', title: 'First replies', numeric: true },
          { key: 'median', title: 'Median', numeric: true },
          { key: 'median_open', title: 'Median, opening hours', numeric: true },
        ]}
        rows={staffRows}
        chart={
          <BreakdownChart
            compare={false}
            rows={staffRows.map((s) => ({ label: s.name ?? '', count: s.replies ?? 0 }))}
          />
        }
      />
      <ReportCard
        title="When enquiries come in"
        file={`busiest-hours-${first}-${last}`}
        loading={enquiries.isPending}
        columns={[
          { key: 'weekday', title: 'Day' },
          { key: 'hour', title: 'Hour', numeric: true },
          { key: 'count', title: 'Enquiries', numeric: true },
        ]}
        rows={heatRows}
        chart={<Heatmap cells={e?.heatmap ?? []} />}
      />
      {(features.reviews || features.invoices) && (
        <FollowUps
          filter={filter}
          first={first}
          last={last}
          reviews={features.reviews}
          invoices={features.invoices}
        />
      )}
    </Flex>
  );
}
