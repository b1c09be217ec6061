import { Card, Typography } from 'antd';

export const PRIMARY = '#1E75FF';
export const MUTED = '#A3B3C9';
/** Money going back out: refunds. */
export const DANGER = '#E5484D';

/** "+12% on the period before", or nothing to compare with. */
export function change(now: number, before: number): string {
  if (before === 0) return now === 0 ? 'No change on the period before' : 'None in the period before';
  const pct = Math.round(((now - before) / before) * 100);
  return `${pct > 0 ? '+' : ''}${pct}% on the period before (${before})`;
}

/** Seconds as a person reads a wait: '45 s', '12 min', '3.5 h', '2.1 days'. */
export function duration(seconds: number | null): string {
  if (seconds === null) return '—';
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min`;
  if (seconds < 86_400) return `${(seconds / 3600).toFixed(1)} h`;
  return `${(seconds / 86_400).toFixed(1)} days`;
}

export function Figure({ label, value, note }: { label: string; value: string; note: string }) {
  return (
    <Card size="small" style={{ flex: '1 1 200px' }}>
      <Typography.Text type="secondary">{label}</Typography.Text>
      <div style={{ fontSize: 28, fontWeight: 600, lineHeight: 1.3 }}>{value}</div>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {note}
      </Typography.Text>
    </Card>
  );
}
