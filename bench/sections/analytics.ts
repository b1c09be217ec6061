/**
 * Analytics reads at scale: every report (enquiries, calls, response times, reviews, invoices) for the last 90
 * days over all locations, through the real app (`buildApp` + `app.inject`), on the bench data set (100k
 * enquiries / 1M messages in one business). The reports read enquiries, calls, review requests, invoices and
 * the facts recorded as replies and closes happen, never messages. The bench data's facts, calls, review
 * requests and invoices are derived once from its enquiries when it has none: a first reply for each enquiry
 * with more than one message, a resolution for each closed one, a call for every fourth enquiry, a review
 * request for every tenth closed one and an invoice for every twentieth.
 *
 * The reports run in interleaved rounds with a baseline, `GET /user/me` (the signed-in person, their
 * businesses and locations: the app's floor for an authenticated read), so a noisy machine shows in both.
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

const REPORTS = ['enquiries', 'calls', 'response-times', 'reviews', 'invoices'] as const;
const BASELINE = 'GET /user/me (baseline)';
const ROUNDS = 10;

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

/** Calls, review requests and invoices for the bench data, derived from its enquiries once. */
async function ensureFollowUps(bench: BenchDatabase, log: (line: string) => void): Promise<void> {
  const db = bench.database.db;
  const [have] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from calls`);
  if ((have?.n ?? 0) > 0) return;
  const started = Date.now();
  await db.execute(sql`
    insert into calls (id, business_id, location_id, enquiry_id, message_id, customer_id, user_id, direction,
                       from_number, to_number, status, voicemail, provider, provider_call_sid, created_at)
    select gen_random_uuid(), e.business_id, e.location_id, e.id, m.id, e.customer_id,
           case when r.v < 0.6 then e.assigned_to end,
           case when r.v < 0.8 then 'in' else 'out' end, '+61491570000', '+61491570156',
           case when r.v < 0.6 then 'completed' when r.v < 0.7 then 'no-answer' when r.v < 0.8 then 'busy'
                else 'completed' end,
           r.v between 0.6 and 0.7, 'bench', 'CA' || replace(e.id::text, '-', ''), e.created_at
    from enquiries e
    cross join lateral (select random() as v) r
    cross join lateral (select id from messages where enquiry_id = e.id limit 1) m
    where hashtext(e.id::text) % 4 = 0`);
  await db.execute(sql`
    insert into review_requests (id, business_id, location_id, customer_id, enquiry_id, token, review_url, status,
                                 sent_at, clicked_at)
    select gen_random_uuid(), e.business_id, e.location_id, e.customer_id, e.id, md5(e.id::text),
           'https://g.page/r/bench/review', case when random() < 0.3 then 'clicked' else 'sent' end,
           e.updated_at, null
    from enquiries e where e.status = 'closed' and hashtext(e.id::text) % 10 = 0`);
  await db.execute(
    sql`update review_requests set clicked_at = sent_at + interval '2 hours' where status = 'clicked'`,
  );
  await db.execute(sql`
    insert into invoices (id, business_id, location_id, customer_id, enquiry_id, number, status, currency,
                          subtotal_cents, total_cents, amount_paid_cents, secret, sent_at, paid_at, created_at)
    select gen_random_uuid(), e.business_id, e.location_id, e.customer_id, e.id,
           'BENCH-' || row_number() over (), case when p.paid then 'paid' else 'sent' end, 'AUD', p.cents,
           p.cents, case when p.paid then p.cents else 0 end, md5(e.id::text || 'invoice'), e.created_at,
           case when p.paid then e.created_at + random() * interval '10 days' end, e.created_at
    from enquiries e
    cross join lateral (select random() < 0.7 as paid, (5000 + random() * 50000)::int as cents) p
    where hashtext(e.id::text) % 20 = 0`);
  const [made] = await queryRows<{ calls: number; reviews: number; invoices: number }>(
    db,
    sql`select (select count(*)::int from calls) as calls, (select count(*)::int from review_requests) as reviews,
               (select count(*)::int from invoices) as invoices`,
  );
  log(
    `Derived ${made?.calls.toLocaleString('en')} calls, ${made?.reviews.toLocaleString('en')} review requests and ` +
      `${made?.invoices.toLocaleString('en')} invoices from the enquiries in ${((Date.now() - started) / 1000).toFixed(1)} s`,
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
  await ensureFollowUps(bench, ctx.log);
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
  const cases = [
    { name: BASELINE, url: '/api/v1/user/me' },
    ...REPORTS.map((report) => ({
      name: `GET /analytics/${report}`,
      url: `/api/v1/analytics/${report}?start=${start}&end=${today}&timezone=Australia/Melbourne`,
    })),
  ];
  const counted = new Map<string, unknown>();
  const run = (c: (typeof cases)[number]) => async () => {
    const res = await app.inject({
      method: 'GET',
      url: c.url,
      headers: { authorization: `Bearer ${token}` },
    });
    if (res.statusCode !== 200) throw new Error(`GET ${c.url}: ${res.statusCode} ${res.body}`);
    const body = (res.json() as { body: Record<string, unknown> }).body;
    counted.set(
      c.name,
      body.total ?? body.sent ?? (body.first_response as { count: number } | undefined)?.count ?? null,
    );
  };
  // Rounds: each case in turn, a share of its iterations and time each round, so noise falls on all alike.
  const samples = new Map<string, number[]>(cases.map((c) => [c.name, []]));
  const perRound = {
    warmup: Math.ceil(ctx.warmup / ROUNDS),
    iterations: Math.ceil(ctx.iterations / ROUNDS),
    maxSeconds: ctx.caseSeconds / ROUNDS,
  };
  for (let round = 0; round < ROUNDS; round++) {
    for (const c of cases) {
      samples
        .get(c.name)!
        .push(...(await measure(run(c), { ...perRound, warmup: round === 0 ? perRound.warmup : 0 })));
    }
  }
  const results = cases.map((c) => ({ name: c.name, summary: summarise(samples.get(c.name)!) }));
  const isReport = (name: string) => name !== BASELINE;
  ctx.log(
    `${ROUNDS} interleaved rounds; the baseline is the app's floor for a signed-in read on the same data set.`,
  );
  ctx.log(
    table(
      [
        'engine',
        'read (90 days, all locations)',
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
        r.name,
        isReport(r.name) ? String(counted.get(r.name) ?? '—') : '—',
        r.summary.n,
        ms(r.summary.p50),
        ms(r.summary.p99),
        ms(r.summary.max),
        isReport(r.name) ? `≤ ${budget} ms` : '—',
        isReport(r.name) ? (r.summary.p99 <= budget ? 'PASS' : 'OVER') : '—',
      ]),
    ),
  );
  const baseline = results.find((r) => r.name === BASELINE)!.summary;
  return results
    .filter((r) => isReport(r.name))
    .map((r) => ({
      section: 'analytics',
      engine,
      what: `${r.name} (90 days)`,
      result: `p99 ${ms(r.summary.p99)} ms (baseline ${ms(baseline.p99)} ms)`,
      budget: `≤ ${budget} ms`,
      verdict: r.summary.p99 <= budget ? 'PASS' : 'OVER',
    }));
}
