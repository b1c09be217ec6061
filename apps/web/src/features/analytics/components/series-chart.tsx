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
import type { Row } from './report-card.tsx';

export type Measure = { key: string; name: string; colour: string };

/**
 * Counts over the period's buckets (rows keyed by `bucket`): lines, or bars side by side; a legend once there
 * is more than one measure.
 */
export function SeriesChart({
  rows,
  measures,
  kind,
  height = 240,
}: {
  rows: Row[];
  measures: Measure[];
  kind: 'line' | 'bar';
  height?: number;
}) {
  const axes = [
    <CartesianGrid key="grid" strokeDasharray="3 3" />,
    <XAxis key="x" dataKey="bucket" minTickGap={24} />,
    <YAxis key="y" allowDecimals={false} />,
    <Tooltip key="tip" />,
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
              key={m.key}
              type="monotone"
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
