/**
 * `npm run bench [-- section …]`: runs each section on each engine and prints tables (DESIGN §9: printed, not timed tests).
 *
 *   BENCH_ENGINES=postgres,pglite   which engines (default both)
 *   BENCH_SCALE=1                   data size; 0.1 for a quick run (10k enquiries / 100k messages)
 *   BENCH_SECTIONS=inbox,ingest     which sections (default all)
 *   BENCH_ITERATIONS=300            recorded requests per case (after BENCH_WARMUP=30)
 *   BENCH_CASE_SECONDS=15           a case stops early after this long
 *   BENCH_EXPERIMENT=indexes        optional experiments (off by default)
 *   BENCH_TIMEOUT_SECONDS=1200      the whole run gives up (and cleans up) after this long
 *
 * PostgreSQL is the benchmark's own server (scripts/pg.sh on BENCH_PG_PORT, default 55440, fsync and
 * synchronous_commit on), stopped at the end, also on error or Ctrl-C. Everything stays on 127.0.0.1.
 */
import { cpus, totalmem } from 'node:os';
import { scaleFromEnv } from './generate.ts';
import type { BenchContext, Engine, Section, SummaryRow } from './lib/context.ts';
import { type PostgresServer, startPostgres, stopPostgres } from './lib/postgres.ts';
import { table } from './lib/stats.ts';
import { analyticsSection } from './sections/analytics.ts';
import { broadcastSection } from './sections/broadcast.ts';
import { callRingSection } from './sections/call-ring.ts';
import { inboxSection } from './sections/inbox.ts';
import { ingestSection } from './sections/ingest.ts';
import { mixedSection } from './sections/mixed.ts';
import { outboundSection } from './sections/outbound.ts';
import { webSizeSection } from './sections/web-size.ts';
import { widgetSizeSection } from './sections/widget-size.ts';

/** In run order. */
const SECTIONS: Section[] = [
  webSizeSection,
  widgetSizeSection,
  inboxSection,
  analyticsSection,
  ingestSection,
  mixedSection,
  outboundSection,
  broadcastSection,
  callRingSection,
];

function listEnv<T extends string>(name: string, allowed: readonly T[], fallback: readonly T[]): T[] {
  const raw = process.env[name];
  if (!raw) return [...fallback];
  const items = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = items.filter((s) => !allowed.includes(s as T));
  if (bad.length) throw new Error(`${name}: unknown ${bad.join(', ')} (choose from ${allowed.join(', ')})`);
  return items as T[];
}

function numberEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0)
    throw new Error(`${name} must be a non-negative number, got ${JSON.stringify(raw)}`);
  return n;
}

const cleanups: (() => Promise<void> | void)[] = [];
let cleaning: Promise<void> | null = null;

/** Runs the registered clean-ups once, last first; each failure is reported and the rest still run. */
function cleanUp(): Promise<void> {
  cleaning ??= (async () => {
    for (let fn = cleanups.pop(); fn; fn = cleanups.pop()) {
      try {
        await fn();
      } catch (error) {
        console.error('bench: clean-up failed:', error);
      }
    }
  })();
  return cleaning;
}

async function main(): Promise<void> {
  const engines = listEnv<Engine>('BENCH_ENGINES', ['postgres', 'pglite'], ['postgres', 'pglite']);
  const sectionNames = SECTIONS.map((s) => s.name);
  // `npm run bench -- ingest inbox` names sections on the command line; BENCH_SECTIONS does the same.
  const named = process.argv.slice(2).filter((a) => !a.startsWith('-'));
  if (named.length) process.env.BENCH_SECTIONS = named.join(',');
  const chosen = listEnv('BENCH_SECTIONS', sectionNames, sectionNames);
  const timeout = numberEnv('BENCH_TIMEOUT_SECONDS', 1200);

  let server: Promise<PostgresServer> | null = null;
  const ctx: BenchContext = {
    engines,
    scale: scaleFromEnv(),
    iterations: Math.max(1, Math.round(numberEnv('BENCH_ITERATIONS', 300))),
    warmup: Math.round(numberEnv('BENCH_WARMUP', 30)),
    caseSeconds: numberEnv('BENCH_CASE_SECONDS', 15),
    experiments: new Set(listEnv('BENCH_EXPERIMENT', ['indexes'], [])),
    log: (line = '') => console.log(line),
    postgres: () => {
      if (!server) {
        server = startPostgres();
        // Registered before the server is awaited: a failed or interrupted start is still stopped.
        cleanups.push(async () => {
          await server?.catch(() => {});
          stopPostgres();
          console.log('(benchmark PostgreSQL server stopped)');
        });
      }
      return server;
    },
    defer: (fn) => {
      cleanups.push(fn);
    },
  };

  const watchdog = setTimeout(() => {
    console.error(`\nbench: gave up after ${timeout} s (BENCH_TIMEOUT_SECONDS); cleaning up`);
    void cleanUp().finally(() => process.exit(2));
  }, timeout * 1000);
  watchdog.unref();

  const started = performance.now();
  console.log('# Switchboard benchmarks');
  console.log(
    `node ${process.version}, ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), ${Math.round(totalmem() / 2 ** 30)} GB; ` +
      `engines ${engines.join(', ')}; scale ${ctx.scale}; sections ${chosen.join(', ')}` +
      (ctx.experiments.size ? `; experiments ${[...ctx.experiments].join(', ')}` : ''),
  );

  const summary: SummaryRow[] = [];
  try {
    for (const section of SECTIONS.filter((s) => chosen.includes(s.name))) {
      summary.push(...(await section.run(ctx)));
    }
  } finally {
    await cleanUp();
    clearTimeout(watchdog);
  }

  console.log('\n## Summary (budgets from DESIGN §10)');
  console.log(
    table(
      ['section', 'engine', 'what', 'result', 'budget', 'verdict'],
      summary.map((r) => [r.section, r.engine ?? '—', r.what, r.result, r.budget, r.verdict]),
    ),
  );
  const over = summary.filter((r) => r.verdict === 'OVER').length;
  console.log(
    `\n${over ? `${over} of ${summary.length} budgets OVER` : 'All budgets PASS'}; ` +
      `total ${((performance.now() - started) / 1000).toFixed(0)} s.`,
  );
}

// Output piped into something that stopped reading (`npm run bench | head`): stop, and stop the server too.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  void cleanUp().finally(() => process.exit(0));
});

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.once(signal, () => {
    console.error(`\nbench: ${signal}; cleaning up`);
    void cleanUp().finally(() => process.exit(130));
  });
}

try {
  await main();
  // pg-boss and pools may leave timers behind; the run is over.
  process.exit(0);
} catch (error) {
  console.error('\nbench failed:', error);
  await cleanUp();
  process.exit(1);
}
