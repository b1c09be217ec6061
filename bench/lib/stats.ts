/** Latency samples in milliseconds and their summary. */
export type Summary = { n: number; p50: number; p99: number; mean: number; max: number };

/** Nearest-rank percentile: with 300 samples, p99 is the 297th smallest. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] ?? Number.NaN;
}

export function summarise(samples: number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  const sum = sorted.reduce((s, x) => s + x, 0);
  return {
    n: sorted.length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    mean: sorted.length ? sum / sorted.length : Number.NaN,
    max: sorted.at(-1) ?? Number.NaN,
  };
}

export type MeasureOptions = { warmup: number; iterations: number; maxSeconds: number };

/** A slow case still records this many runs, however long they take: its p99 is then its max. */
const MIN_SAMPLES = 3;

/**
 * Runs `fn(i)` up to `warmup` times unrecorded (for at most a quarter of `maxSeconds`), then up to
 * `iterations` times recorded, one at a time, stopping early once `maxSeconds` have passed.
 */
export async function measure(fn: (i: number) => Promise<void>, options: MeasureOptions): Promise<number[]> {
  let i = 0;
  const warmDeadline = performance.now() + (options.maxSeconds * 1000) / 4;
  while (i < options.warmup && (i < 1 || performance.now() < warmDeadline)) await fn(i++);
  const samples: number[] = [];
  const deadline = performance.now() + options.maxSeconds * 1000;
  while (samples.length < options.iterations) {
    const t0 = performance.now();
    await fn(i++);
    samples.push(performance.now() - t0);
    if (samples.length >= MIN_SAMPLES && performance.now() > deadline) break;
  }
  return samples;
}

export const ms = (x: number) => (Number.isFinite(x) ? x.toFixed(x < 10 ? 2 : 1) : '—');

/** A plain-text table: columns sized to their content, numbers right-aligned. */
export function table(headers: string[], rows: (string | number)[][]): string {
  const cells = rows.map((r) => r.map((c) => String(c)));
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((r) => (r[i] ?? '').length)));
  const numeric = headers.map(
    (_, i) => cells.length > 0 && cells.every((r) => /^[-\d.,—%x×]+$/.test(r[i] ?? '')),
  );
  const line = (r: string[]) =>
    r
      .map((c, i) => (numeric[i] ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line)].join('\n');
}
