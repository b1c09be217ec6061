/**
 * The inbox while webhooks pour in: 20 staff listing the inbox (each again as soon as it answered) while signed
 * Twilio webhooks arrive at 50 a second, for 30 seconds; beside it, interleaved in the same run, the same 20
 * staff on a quiet server (the baseline). The inbox holds 2,000 conversations before the first round.
 *
 *   BENCH_MIXED_SECONDS=30      length of each loaded round (the quiet baseline runs a third as long)
 *   BENCH_MIXED_ROUNDS=1        quiet/loaded pairs
 *   BENCH_MIXED_STAFF=20        staff listing the inbox
 *   BENCH_MIXED_WEBHOOKS=50     webhooks a second
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { buildApp } from '../../apps/server/src/app.ts';
import { signIn } from '../../apps/server/src/test/demo.ts';
import { DEMO_LOGINS, testConfig } from '../../apps/server/src/test/helpers.ts';
import { TMP_DIR } from '../generate.ts';
import {
  type BenchContext,
  ENGINE_LABEL,
  type Engine,
  type Section,
  type SummaryRow,
} from '../lib/context.ts';
import { openSectionDatabase } from '../lib/database.ts';
import type { MixedJob, MixedResult } from '../lib/mixed-worker.ts';
import { ms, percentile, table } from '../lib/stats.ts';
import {
  connectTwilio,
  fakeTwilioAccount,
  inboundRequests,
  load,
  PUBLIC_URL,
  WEBHOOK_PATH,
} from './ingest.ts';

const PG_DB = 'switchboard_mixed';
/** The inbox list p99 budget under this load (DESIGN §10). */
const BUDGET_MS: Record<Engine, number> = { postgres: 100, pglite: 250 };

export const mixedSection: Section = {
  name: 'mixed',
  async run(ctx) {
    const rows: SummaryRow[] = [];
    for (const engine of ctx.engines) rows.push(await runEngine(ctx, engine));
    return rows;
  },
};

const numberEnv = (name: string, fallback: number) => {
  const n = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number`);
  return n;
};

function mixed(job: MixedJob): Promise<MixedResult> {
  return new Promise((resolve, reject) => {
    const entry = new URL('../lib/mixed-worker.ts', import.meta.url).href;
    const boot = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); })`;
    const worker = new Worker(boot, { eval: true, workerData: job });
    worker.once('message', resolve);
    worker.once('error', reject);
  });
}

async function runEngine(ctx: BenchContext, engine: Engine): Promise<SummaryRow> {
  const seconds = numberEnv('BENCH_MIXED_SECONDS', 30);
  const rounds = numberEnv('BENCH_MIXED_ROUNDS', 1);
  const staff = numberEnv('BENCH_MIXED_STAFF', 20);
  const perSecond = numberEnv('BENCH_MIXED_WEBHOOKS', 50);
  ctx.log(`\n## Inbox under webhook load — ${ENGINE_LABEL[engine]}`);
  const database = await openSectionDatabase(ctx, engine, PG_DB);
  const dataDir = join(TMP_DIR, `bench-mixed-app-${engine}`);
  const twilio = await fakeTwilioAccount();
  const app = await buildApp(
    testConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', PUBLIC_URL, TWILIO_API_BASE: twilio.url }),
    { database },
  );
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('bench: no address');
    const origin = `http://127.0.0.1:${address.port}`;
    await connectTwilio(app);
    const token = await signIn(app, DEMO_LOGINS.staff1);
    // 2,000 conversations to list (from as many numbers), stored through the webhook itself.
    await load({
      origin,
      concurrency: 16,
      requests: inboundRequests('seed', 2000, WEBHOOK_PATH, true, 2000),
    });

    const quiet: MixedResult[] = [];
    const loaded: MixedResult[] = [];
    const base = { origin, staff, token, listPath: '/api/v1/enquiries' };
    for (let round = 0; round < rounds; round++) {
      quiet.push(await mixed({ ...base, seconds: seconds / 3, webhooksPerSecond: 1, webhooks: [] }));
      loaded.push(
        await mixed({
          ...base,
          seconds,
          webhooksPerSecond: perSecond,
          webhooks: inboundRequests(`mix${round}`, Math.ceil(seconds * perSecond), WEBHOOK_PATH, true),
        }),
      );
    }
    const sorted = (list: number[]) => [...list].sort((a, b) => a - b);
    const q = sorted(quiet.flatMap((r) => r.list));
    const l = sorted(loaded.flatMap((r) => r.list));
    const w = sorted(loaded.flatMap((r) => r.webhook));
    const errors = [...quiet, ...loaded].reduce(
      (n, r) => n + Object.values(r.failures).reduce((a, b) => a + b, 0),
      0,
    );
    for (const r of [...quiet, ...loaded])
      if (r.samples.length) ctx.log(`  failures: ${r.samples.join(' | ')}`);
    ctx.log(
      `${staff} staff listing the inbox back to back; loaded: plus ${perSecond} signed webhooks/s for ${seconds} s; ` +
        `quiet: the same staff alone (${Math.round(seconds / 3)} s), interleaved. Latency in ms as the client saw it.`,
    );
    ctx.log(
      table(
        ['case', 'requests', 'p50', 'p99', 'max'],
        [
          [
            'inbox list, quiet (baseline)',
            q.length,
            ms(percentile(q, 50)),
            ms(percentile(q, 99)),
            ms(q.at(-1) ?? 0),
          ],
          [
            'inbox list, under webhooks',
            l.length,
            ms(percentile(l, 50)),
            ms(percentile(l, 99)),
            ms(l.at(-1) ?? 0),
          ],
          ['webhooks', w.length, ms(percentile(w, 50)), ms(percentile(w, 99)), ms(w.at(-1) ?? 0)],
        ],
      ),
    );
    const p99 = percentile(l, 99);
    return {
      section: 'mixed',
      engine,
      what: `inbox list p99 with ${staff} staff + ${perSecond} webhooks/s`,
      result: `${ms(p99)} ms (quiet ${ms(percentile(q, 99))} ms), ${errors} errors`,
      budget: `≤ ${BUDGET_MS[engine]} ms, 0 errors`,
      verdict: p99 <= BUDGET_MS[engine] && errors === 0 ? 'PASS' : 'OVER',
    };
  } finally {
    await app.close();
    await twilio.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
