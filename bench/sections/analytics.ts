/**
 * Analytics reads at scale: GET /analytics/enquiries, /calls and /response-times for the last 90 days over all
 * locations, through the real app (`buildApp` + `app.inject`), on the bench data set (100k enquiries / 1M
 * messages in one business). The reports read enquiries and the facts recorded as replies and closes happen,
 * never messages; the bench data's facts are derived once from its enquiries (a first reply for each enquiry
 * with more than one message, a resolution for each closed one) when the data has none.
 */
import { queryRows } from '@switchboard/db';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../apps/server/src/app.ts';
import { testConfig } from '../../apps/server/src/test/helpers.ts';
import {
  BENCH_BUSINESS,
  type BenchDatabase,
  openPgliteBench,
  openPostgresBench,
  TMP_DIR,
} from '../generate.ts';
import { ownerToken } from '../lib/app.ts';
import {
  type BenchContext,
  ENGINE_LABEL,
  type Engine,
  type Section,
  type SummaryRow,
} from '../lib/context.ts';
import { measure, ms, summarise, table } from '../lib/stats.ts';

/** DESIGN §10: analytics, 90 days, all locations, 1M messages. */
const BUDGET_MS: Record<Engine, number> = { postgres: 100, pglite: 300 };

const REPORTS = ['enquiries', 'calls', 'response-times'] as const;

export const analyticsSection: Section = {
  name: 'analytics',
  async run(ctx) {
    const rows: SummaryRow[] = [];
    for (const engine of ctx.engines) rows.push(...(await runEngine(ctx, engine)));
    return rows;
  },
};

/** Facts for the bench data, derived from its enquiries once (set-based, both engines). */
async function ensureFacts(bench: BenchDatabase, log: (line: string) => void): Promise<void> {
  const db = bench.database.db;
  const [have] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from enquiry_facts`);
  if ((have?.n ?? 0) > 0) return;
  const started = Date.now();
  await db.execute(sql`
    insert into enquiry_facts (id, business_id, location_id, enquiry_id, kind, channel, started_at, ended_at,
                               seconds, business_seconds, user_id, by_assistant)
    select gen_random_uuid(), e.business_id, e.location_id, e.id, 'response', e.channel, e.created_at,
           e.created_at + w.wait, extract(epoch from w.wait)::int, (extract(epoch from w.wait) * 0.6)::int,
           e.assigned_to, (e.ai_replies > 0)
    from enquiries e
    cross join lateral (select (random() * random() * interval '6 hours') + interval '20 seconds' as wait) w
    where e.last_message_at > e.created_at`);
  await db.execute(sql`
    insert into enquiry_facts (id, business_id, location_id, enquiry_id, kind, channel, started_at, ended_at,
                               seconds, business_seconds, user_id, by_assistant)
    select gen_random_uuid(), e.business_id, e.location_id, e.id, 'resolution', e.channel, e.created_at,
           e.updated_at, extract(epoch from e.updated_at - e.created_at)::int,
           (extract(epoch from e.updated_at - e.created_at) * 0.3)::int, e.assigned_to, false
    from enquiries e where e.status = 'closed' and e.updated_at >= e.created_at`);
  const [made] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from enquiry_facts`);
  log(
    `Derived ${made?.n.toLocaleString('en')} facts from the enquiries in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
}

async function runEngine(ctx: BenchContext, engine: Engine): Promise<SummaryRow[]> {
  ctx.log(`\n## Analytics reads — ${ENGINE_LABEL[engine]}`);
  const bench =
    engine === 'postgres'
      ? await openPostgresBench((await ctx.postgres()).adminUrl, ctx.scale, ctx.log)
      : await openPgliteBench(ctx.scale, ctx.log);
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await bench.database.close();
  };
  ctx.defer(close);
  await ensureFacts(bench, ctx.log);
  const [counts] = await queryRows<{ enquiries: number; facts: number; calls: number }>(
    bench.database.db,
    sql`select (select count(*)::int from enquiries e join businesses b on b.id = e.business_id
                where b.name = ${BENCH_BUSINESS} and e.created_at > now() - interval '180 days') as enquiries,
               (select count(*)::int from enquiry_facts where ended_at > now() - interval '180 days') as facts,
               (select count(*)::int from calls) as calls`,
  );
  ctx.log(
    `In the 90 days and the 90 before (both read for the comparison): ${counts?.enquiries.toLocaleString('en')} enquiries, ` +
      `${counts?.facts.toLocaleString('en')} facts; ${counts?.calls.toLocaleString('en')} calls in all`,
  );
  const app = await buildApp(testConfig({ DATA_DIR: `${TMP_DIR}/bench-app-data`, LOG_LEVEL: 'silent' }), {
    database: bench.database,
  });
  try {
    await app.ready();
    return await measureReports(ctx, engine, app);
  } finally {
    await app.close();
    await close();
  }
}

async function measureReports(
  ctx: BenchContext,
  engine: Engine,
  app: FastifyInstance,
): Promise<SummaryRow[]> {
  const token = await ownerToken(app);
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Australia/Melbourne' }).format(new Date());
  const start = new Date(Date.parse(`${today}T12:00:00Z`) - 89 * 86_400_000).toISOString().slice(0, 10);
  const budget = BUDGET_MS[engine];
  const results: { report: string; summary: ReturnType<typeof summarise>; total: unknown }[] = [];
  for (const report of REPORTS) {
    const url = `/api/v1/analytics/${report}?start=${start}&end=${today}&timezone=Australia/Melbourne`;
    let total: unknown = null;
    const samples = await measure(
      async () => {
        const res = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
        if (res.statusCode !== 200) throw new Error(`GET ${url}: ${res.statusCode} ${res.body}`);
        const body = (res.json() as { body: Record<string, unknown> }).body;
        total = body.total ?? (body.first_response as { count: number } | undefined)?.count;
      },
      { warmup: ctx.warmup, iterations: ctx.iterations, maxSeconds: ctx.caseSeconds },
    );
    results.push({ report, summary: summarise(samples), total });
  }
  ctx.log(
    table(
      [
        'engine',
        'report (90 days, all locations)',
        'counted',
        'n',
        'p50 ms',
        'p99 ms',
        'max ms',
        'budget p99',
        'verdict',
      ],
      results.map((r) => [
        ENGINE_LABEL[engine],
        `GET /analytics/${r.report}`,
        String(r.total ?? '—'),
        r.summary.n,
        ms(r.summary.p50),
        ms(r.summary.p99),
        ms(r.summary.max),
        `≤ ${budget} ms`,
        r.summary.p99 <= budget ? 'PASS' : 'OVER',
      ]),
    ),
  );
  return results.map((r) => ({
    section: 'analytics',
    engine,
    what: `GET /analytics/${r.report} (90 days)`,
    result: `p99 ${ms(r.summary.p99)} ms`,
    budget: `≤ ${budget} ms`,
    verdict: r.summary.p99 <= budget ? 'PASS' : 'OVER',
  }));
}
