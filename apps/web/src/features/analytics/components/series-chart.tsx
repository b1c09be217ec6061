import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { ReportCard, type Row } from './report-card.tsx';

export type Measure = { key: string; name: string; colour: string };

const DAY = new Intl.DateTimeFormat('en-AU', { day: 'numeric', month: 'short', timeZone: 'UTC' });
const MONTH = new Intl.DateTimeFormat('en-AU', { month: 'short', year: 'numeric', timeZone: 'UTC' });

/** A bucket's first day ('2026-11-21') as an axis reads it: '21 Nov', or 'Nov 2026' for months. */
function tick(bucket: string, unit: 'day' | 'week' | 'month'): string {
  const day = new Date(`${bucket}T00:00:00Z`);
  if (Number.isNaN(day.getTime())) return bucket;
  return (unit === 'month' ? MONTH : DAY).format(day);
}

/**
 * Counts over the period's buckets (rows keyed by `bucket`): lines, or bars side by side; a legend once there
 * is more than one measure.
 */
export function SeriesChart({
  rows,
  measures,
  kind,
  unit = 'day',
  height = 240,
}: {
  rows: Row[];
  measures: Measure[];
  kind: 'line' | 'bar';
  /** What each bucket is, for the axis's labels. */
  unit?: 'day' | 'week' | 'month';
  height?: number;
}) {
  const axes = [
    <CartesianGrid key="grid" strokeDasharray="3 3" />,
    <XAxis key="x" dataKey="bucket" minTickGap={16} tickFormatter={(v: string) => tick(v, unit)} />,
    <YAxis key="y" allowDecimals={false} />,
    <Tooltip key="tip" labelFormatter={(v) => tick(String(v), unit)} />,
    measures.length > 1 && <Legend key="legend" />,
  ];
  const margin = { left: -16, right: 28 };
  return (
    <ResponsiveContainer width="100%" height={height}>
      {kind === 'line' ? (
        <LineChart data={rows} margin={margin}>
          {axes}
          {measures.map((m) => (
            <Line
              isAnimationActive={false}
              key={m.key}
              type="linear"
              dataKey={m.key}
              name={m.name}
              stroke={m.colour}
              strokeWidth={2}
              dot={false}
            />
          ))}
        </LineChart>
      ) : (
        <BarChart data={rows} margin={margin}>
          {axes}
          {measures.map((m) => (
            <Bar isAnimationActive={false} key={m.key} dataKey={m.key} name={m.name} fill={m.colour} />
          ))}
        </BarChart>
      )}
    </ResponsiveContainer>
  );
}

type Unit = 'day' | 'week' | 'month';

/** The first column's title for a period's buckets. */
export const bucketTitle = (unit: Unit | undefined) =>
  unit === 'month' ? 'Month' : unit === 'week' ? 'Week of' : 'Day';

/**
 * A report of counts over the period's buckets: the chart above, or the table of the same rows (a column per
 * measure), and its CSV.
 */
export function SeriesReport({
  title,
  file,
  loading,
  unit,
  rows,
  measures,
  kind,
  height,
}: {
  title: string;
  file: string;
  loading: boolean;
  unit: Unit | undefined;
  rows: Row[];
  measures: Measure[];
  kind: 'line' | 'bar';
  height?: number;
}) {
  return (
    <ReportCard
      title={title}
      file={file}
      loading={loading}
      columns={[
        { key: 'bucket', title: bucketTitle(unit) },
        ...measures.map((m) => ({ key: m.key, title: m.name, numeric: true })),
      ]}
      rows={rows}
      chart={<SeriesChart kind={kind} unit={unit} height={height} rows={rows} measures={measures} />}
    />
  );
}
