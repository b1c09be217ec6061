/**
 * Inbox reads at scale: GET /enquiries (default view and filters) and GET /enquiries/{id}/messages through
 * the real app (`buildApp` + `app.inject`), on 100k enquiries / 1M messages in one business, per engine.
 * Also EXPLAIN ANALYZE of the list query exactly as the app sends it (captured from drizzle), and, with
 * BENCH_EXPERIMENT=indexes, the same reads with the proposed indexes applied by raw SQL and undone after.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { type Database, type Db, DEMO_LOGINS, queryRows, schema } from '@switchboard/db';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../apps/server/src/app.ts';
import { testConfig } from '../../apps/server/src/test/helpers.ts';
import {
  BENCH_BUSINESS,
  type BenchDatabase,
  openPgliteBench,
  openPostgresBench,
  sizesFor,
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
import { measure, ms, type Summary, summarise, table } from '../lib/stats.ts';

/** DESIGN §10: GET /enquiries page 1 with filters, 100k enquiries / 1M messages in one business. */
const LIST_BUDGET_MS: Record<Engine, number> = { postgres: 20, pglite: 60 };

/** Indexes proposed for the list query; applied only in the optional experiment, then undone. */
const PROPOSED_INDEXES = [
  {
    name: 'bench_exp_enquiries_inbox_lm_idx',
    ddl: 'on enquiries (business_id, location_id, status, last_message_at desc, id desc)',
    why: 'the list orders by last_message_at desc, id desc: read in that order and stop after the page',
  },
  {
    name: 'bench_exp_enquiries_assigned_lm_idx',
    ddl: 'on enquiries (business_id, location_id, status, assigned_to, last_message_at desc, id desc)',
    why: 'the same for assigned_to=, view=mine and view=unassigned (assigned_to is null)',
  },
] as const;
/** The indexes the proposal replaces: they order by updated_at, which no query orders by. */
const REPLACED_INDEXES = ['enquiries_inbox_idx', 'enquiries_assigned_idx'];

type Case = { key: string; label: string; list: boolean; path: (i: number) => string };
type Measured = { case: Case; summary: Summary };
/** A case's list query plan, and how many SQL statements the whole request ran. */
type Planned = { case: Case; plan: PlanSummary; statements: number };

export const inboxSection: Section = {
  name: 'inbox',
  async run(ctx) {
    const rows: SummaryRow[] = [];
    for (const engine of ctx.engines) rows.push(...(await runEngine(ctx, engine)));
    return rows;
  },
};

async function runEngine(ctx: BenchContext, engine: Engine): Promise<SummaryRow[]> {
  const sizes = sizesFor(ctx.scale);
  ctx.log(`\n## Inbox reads — ${ENGINE_LABEL[engine]}`);
  ctx.log(
    `Data: one business ("${BENCH_BUSINESS}"), ${sizes.enquiries.toLocaleString('en')} enquiries, ` +
      `${sizes.messages.toLocaleString('en')} messages, ${sizes.customers.toLocaleString('en')} customers, 2 locations`,
  );

  let bench: BenchDatabase;
  if (engine === 'postgres') {
    const server = await ctx.postgres();
    const settings = Object.entries(server.settings).map(([k, v]) => `${k}=${v}`);
    ctx.log(`Server (own instance, ${new URL(server.adminUrl).host}): ${settings.join(', ')}`);
    bench = await openPostgresBench(server.adminUrl, ctx.scale, ctx.log);
  } else {
    bench = await openPgliteBench(ctx.scale, ctx.log);
  }
  let closed = false;
  const closeDatabase = async () => {
    if (closed) return;
    closed = true;
    await bench.database.close();
  };
  ctx.defer(closeDatabase);
  if (bench.generated) ctx.log(`Generated in ${bench.generated.seconds.toFixed(1)} s (${bench.where})`);
  else if (bench.cached) {
    ctx.log(
      `Opened cached data (${bench.where}), generated ${bench.cached.created_at} in ` +
        `${bench.cached.seconds.toFixed(1)} s; delete the directory to generate (and time) it again`,
    );
  }
  if (await undoExperiment(bench, null))
    ctx.log('Undid an experiment an interrupted run had left in the data');

  const capture = withQueryCapture(bench.database);
  const config = testConfig({ DATA_DIR: `${TMP_DIR}/bench-app-data`, LOG_LEVEL: 'silent' });
  const app = await buildApp(config, { database: capture.database });
  try {
    await app.ready();
    return await measureEngine(ctx, engine, app, bench, capture);
  } finally {
    await app.close();
    await closeDatabase();
  }
}

async function measureEngine(
  ctx: BenchContext,
  engine: Engine,
  app: FastifyInstance,
  bench: BenchDatabase,
  capture: QueryCapture,
): Promise<SummaryRow[]> {
  const token = await ownerToken(app);
  const fixtures = await loadFixtures(bench.database, ctx.warmup + ctx.iterations);
  const cases = buildCases(fixtures);
  const budget = LIST_BUDGET_MS[engine];
  const verdict = (s: Summary, c: Case) => (c.list ? (s.p99 <= budget ? 'PASS' : 'OVER') : '—');

  const first = (await get(app, token, '/api/v1/enquiries')) as { items: unknown[]; total: number | null };
  ctx.log(
    `Default view answers ${first.items.length} rows of ${first.total?.toLocaleString('en')} (total from the location counters)`,
  );

  const loadBefore = loadavg()[0] ?? 0;
  const results = await measureCases(ctx, app, token, cases);
  const loadAfter = loadavg()[0] ?? 0;
  // The average counts this benchmark too (node, and a PostgreSQL backend with its parallel workers).
  const busy = Math.max(loadBefore, loadAfter) > cpus().length * 1.5;
  ctx.log(
    '\nLatency per request through app.inject: in-process, so it EXCLUDES the network and TCP; it includes\n' +
      'routing, auth (JWT + session lookup), validation, every SQL query of the handler and JSON serialisation.\n' +
      `Requests one at a time; up to ${ctx.warmup} warm-up, then up to ${ctx.iterations} recorded ` +
      `(a case stops after ~${ctx.caseSeconds} s). Machine load (1-min avg) ${loadBefore.toFixed(1)} → ` +
      `${loadAfter.toFixed(1)} on ${cpus().length} cores, this run included` +
      (busy ? ' — OTHER WORK WAS COMPETING FOR THE CPUs: latencies, tails most, are inflated.' : '.'),
  );
  ctx.log(
    table(
      ['engine', 'case', 'request', 'n', 'p50 ms', 'p99 ms', 'mean ms', 'max ms', 'budget p99', 'verdict'],
      results.map(({ case: c, summary: s }) => [
        ENGINE_LABEL[engine],
        c.label,
        c.path(0).replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, '{id}'),
        s.n,
        ms(s.p50),
        ms(s.p99),
        ms(s.mean),
        ms(s.max),
        c.list ? `≤ ${budget} ms` : '—',
        verdict(s, c),
      ]),
    ),
  );

  const plans = await explainCases(app, token, bench.database, capture, cases);
  printPlans(ctx, engine, plans);

  const summary: SummaryRow[] = results
    .filter((r) => r.case.list)
    .map(({ case: c, summary: s }) => ({
      section: 'inbox',
      engine,
      what: `GET /enquiries ${c.label}`,
      result: `p99 ${ms(s.p99)} ms`,
      budget: `≤ ${budget} ms`,
      verdict: s.p99 <= budget ? 'PASS' : 'OVER',
    }));
  if (ctx.experiments.has('indexes')) {
    summary.push(...(await indexExperiment(ctx, engine, app, token, bench, capture, cases, results)));
  }
  return summary;
}

// ---------------------------------------------------------------------------------------------------------

type Fixtures = { staffId: string; enquiryIds: string[]; today: string };

async function loadFixtures(database: Database, count: number): Promise<Fixtures> {
  const [staff] = await queryRows<{ id: string }>(
    database.db,
    sql`select id from users where email = ${DEMO_LOGINS.staff1}`,
  );
  const [biz] = await queryRows<{ id: string; timezone: string }>(
    database.db,
    sql`select id, timezone from businesses where name = ${BENCH_BUSINESS}`,
  );
  if (!staff || !biz) throw new Error('inbox: the demo seed is missing');
  // Distinct random threads: each read is a thread not read before, as when staff open one after another.
  const ids = await queryRows<{ id: string }>(
    database.db,
    sql`select id from enquiries where business_id = ${biz.id} order by random() limit ${count}`,
  );
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: biz.timezone }).format(new Date());
  return { staffId: staff.id, enquiryIds: ids.map((r) => r.id), today };
}

const addDays = (day: string, days: number) => {
  const d = new Date(`${day}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
};

function buildCases(f: Fixtures): Case[] {
  const list = (key: string, label: string, query: string): Case => ({
    key,
    label,
    list: true,
    path: () => `/api/v1/enquiries${query ? `?${query}` : ''}`,
  });
  return [
    list('default', 'default view (open, all)', ''),
    list('closed', 'closed tab', 'status=closed'),
    list('unassigned_channels', 'unassigned, sms+email', 'view=unassigned&channels=sms,email'),
    list('last30', 'last 30 days', `start_date=${addDays(f.today, -29)}&end_date=${f.today}`),
    list(
      'old30',
      '30 days, ~6 months ago',
      `start_date=${addDays(f.today, -194)}&end_date=${addDays(f.today, -165)}`,
    ),
    list('assigned', 'assigned_to=staff', `assigned_to=${f.staffId}`),
    list('source', 'source=google', 'source=google'),
    // Text search (q): a word in one message of ten, a word in one of 8,000, a last name (customers and email
    // signatures), a prefix as someone types it, the first letter typed, and a name nobody has.
    list('search_common', 'search, common word', 'q=appointment'),
    list('search_rare', 'search, rare word', 'q=anxiety'),
    list('search', 'search q=Okafor', 'q=Okafor'),
    list('search_prefix', 'search, prefix q=satur', 'q=satur'),
    list('search_letter', 'search, one letter', 'q=s'),
    list('search_none', 'search, no match', 'q=Fitzgerald'),
    {
      key: 'messages',
      label: 'thread page 1 (random)',
      list: false,
      path: (i) => `/api/v1/enquiries/${f.enquiryIds[i % f.enquiryIds.length]}/messages`,
    },
  ];
}

async function get(app: FastifyInstance, token: string, url: string): Promise<unknown> {
  const res = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
  if (res.statusCode !== 200) throw new Error(`GET ${url}: ${res.statusCode} ${res.body}`);
  return (res.json() as { body: unknown }).body;
}

async function measureCases(
  ctx: BenchContext,
  app: FastifyInstance,
  token: string,
  cases: Case[],
): Promise<Measured[]> {
  const results: Measured[] = [];
  for (const c of cases) {
    const samples = await measure(
      async (i) => {
        await get(app, token, c.path(i));
      },
      { warmup: ctx.warmup, iterations: ctx.iterations, maxSeconds: ctx.caseSeconds },
    );
    results.push({ case: c, summary: summarise(samples) });
  }
  return results;
}

// ---------------------------------------------------------------------------------------------------------
// EXPLAIN ANALYZE of the SQL the app actually sends

type Captured = { sql: string; params: unknown[] };
type QueryCapture = { database: Database; capture(fn: () => Promise<unknown>): Promise<Captured[]> };

/** The same database behind a drizzle instance whose logger can record the SQL of one request. */
function withQueryCapture(database: Database): QueryCapture {
  let sink: Captured[] | null = null;
  const logger = { logQuery: (query: string, params: unknown[]) => sink?.push({ sql: query, params }) };
  let db: unknown;
  if (database.pglite) db = drizzlePglite(database.pglite, { schema, logger });
  else if (database.pool) db = drizzlePg(database.pool, { schema, logger });
  else throw new Error('inbox: the database has neither a PGlite handle nor a pool');
  return {
    database: { ...database, db: db as Db },
    async capture(fn) {
      sink = [];
      try {
        await fn();
        return sink;
      } finally {
        sink = null;
      }
    },
  };
}

async function explainRaw(database: Database, text: string, params: unknown[]): Promise<string[]> {
  let rows: Record<string, string>[];
  if (database.pglite) rows = (await database.pglite.query<Record<string, string>>(text, params)).rows;
  else if (database.pool) rows = (await database.pool.query(text, params)).rows as Record<string, string>[];
  else throw new Error('inbox: the database has neither a PGlite handle nor a pool');
  return rows.map((r) => r['QUERY PLAN'] ?? Object.values(r)[0] ?? '');
}

type PlanSummary = {
  /** How the main table was read, e.g. "Index Scan enquiries_inbox_idx" or "Bitmap on enquiries_assigned_idx". */
  access: string;
  inboxIndex: boolean;
  /** "index order (no sort)" or the sort the plan needed to answer ORDER BY. */
  order: string;
  /** Rows the scans of the main table produced plus the rows their filters removed. */
  rowsRead: number | null;
  execMs: number | null;
  planMs: number | null;
  lines: string[];
};

/** The short form of a text plan: access path to the main table, whether a sort was needed, rows read, time. */
export function summarisePlan(lines: string[], mainTable: 'enquiries' | 'messages'): PlanSummary {
  const nodes: { head: string; details: string[] }[] = [];
  for (const line of lines) {
    const last = nodes.at(-1);
    if (!last || line.includes('->')) nodes.push({ head: line, details: [] });
    else last.details.push(line);
  }
  const scanRe = new RegExp(
    `(Index Only Scan(?: Backward)?|Index Scan(?: Backward)?) using (\\S+) on ${mainTable}\\b|` +
      `Bitmap Heap Scan on ${mainTable}\\b|Seq Scan on ${mainTable}\\b`,
  );
  const access: string[] = [];
  let rowsRead: number | null = null;
  for (const [i, node] of nodes.entries()) {
    const m = scanRe.exec(node.head);
    if (!m) continue;
    const rows = Number(/actual time=[\d.]+\.\.[\d.]+ rows=([\d.]+)/.exec(node.head)?.[1] ?? Number.NaN);
    const loops = Number(/loops=(\d+)/.exec(node.head)?.[1] ?? 1);
    const removed = node.details
      .map((d) => Number(/Rows Removed by (?:Filter|Index Recheck): (\d+)/.exec(d)?.[1] ?? 0))
      .reduce((a, b) => a + b, 0);
    if (Number.isFinite(rows)) rowsRead = (rowsRead ?? 0) + Math.round(rows * loops + removed);
    if (m[0].startsWith('Bitmap Heap')) {
      const children = nodes
        .slice(i + 1)
        .map((n) => /Bitmap Index Scan on (\S+)/.exec(n.head)?.[1])
        .filter((x) => x !== undefined);
      access.push(`Bitmap on ${children.join(' + ') || '?'}`);
    } else if (m[0].startsWith('Seq Scan')) {
      access.push('Seq Scan');
    } else {
      access.push(`${m[1]} ${m[2]}`);
    }
  }
  const sort = lines
    .map((l) => /Sort Method: (.+?)\s+(?:Memory|Disk): (\S+)/.exec(l))
    .find((x) => x !== null);
  const exec = lines.map((l) => /Execution Time: ([\d.]+) ms/.exec(l)?.[1]).find((x) => x !== undefined);
  const planning = lines.map((l) => /Planning Time: ([\d.]+) ms/.exec(l)?.[1]).find((x) => x !== undefined);
  return {
    access: access.join(', ') || '?',
    inboxIndex: lines.some((l) => l.includes('enquiries_inbox_idx')),
    order: sort ? `Sort (${sort[1]}, ${sort[2]})` : 'index order (no sort)',
    rowsRead,
    execMs: exec === undefined ? null : Number(exec),
    planMs: planning === undefined ? null : Number(planning),
    lines,
  };
}

async function explainCases(
  app: FastifyInstance,
  token: string,
  database: Database,
  capture: QueryCapture,
  cases: Case[],
): Promise<Planned[]> {
  const plans: Planned[] = [];
  for (const c of cases) {
    const queries = await capture.capture(() => get(app, token, c.path(0)));
    const mainTable = c.list ? 'enquiries' : 'messages';
    const from = new RegExp(`from "${mainTable}"`, 'i');
    const main = queries.find((q) => from.test(q.sql) && /order by/i.test(q.sql) && /limit/i.test(q.sql));
    if (!main) throw new Error(`inbox: no list query on ${mainTable} captured for ${c.label}`);
    const lines = await explainRaw(database, `explain (analyze, buffers) ${main.sql}`, main.params);
    plans.push({ case: c, plan: summarisePlan(lines, mainTable), statements: queries.length });
  }
  return plans;
}

function printPlans(ctx: BenchContext, engine: Engine, plans: Planned[]): void {
  ctx.log(
    `\nEXPLAIN ANALYZE (${ENGINE_LABEL[engine]}) of the list query exactly as the app sent it, once per case:`,
  );
  ctx.log(
    table(
      [
        'case',
        'SQL/request',
        'table read by',
        'inbox index',
        'ORDER BY answered by',
        'rows read',
        'plan ms',
        'exec ms',
      ],
      plans.map(({ case: c, plan: p, statements }) => [
        c.label,
        statements,
        p.access,
        c.list ? (p.inboxIndex ? 'used' : 'NOT used') : '—',
        p.order,
        p.rowsRead?.toLocaleString('en') ?? '?',
        p.planMs === null ? '?' : ms(p.planMs),
        p.execMs === null ? '?' : ms(p.execMs),
      ]),
    ),
  );
  const def = plans.find((p) => p.case.key === 'default');
  if (def) {
    ctx.log(`\nPlan of the default view (${ENGINE_LABEL[engine]}):`);
    for (const line of def.plan.lines) ctx.log(`    ${line}`);
  }
}

// ---------------------------------------------------------------------------------------------------------
// Optional experiment: the proposed indexes, by raw SQL on the benchmark database only, undone afterwards.
// What is about to change is written down first (in the PGlite cache dir), so an interrupted run is undone
// on the next open instead of leaving a modified cache behind.

type ExperimentState = { dropped: { name: string; def: string }[] };

const markerPath = (bench: BenchDatabase) =>
  bench.cacheDir ? join(bench.cacheDir, 'bench-experiment.json') : null;

async function undoExperiment(bench: BenchDatabase, state: ExperimentState | null): Promise<boolean> {
  const { db } = bench.database;
  const marker = markerPath(bench);
  const saved: ExperimentState | null =
    state ??
    (marker && existsSync(marker) ? (JSON.parse(readFileSync(marker, 'utf8')) as ExperimentState) : null);
  const left = await queryRows<{ indexname: string }>(
    db,
    sql`select indexname from pg_indexes where indexname like 'bench_exp_%'`,
  );
  for (const { indexname } of left) await db.execute(sql.raw(`drop index if exists "${indexname}"`));
  const present = new Set(
    (await queryRows<{ indexname: string }>(db, sql`select indexname from pg_indexes`)).map(
      (r) => r.indexname,
    ),
  );
  let changed = left.length > 0;
  for (const ix of saved?.dropped ?? []) {
    if (present.has(ix.name)) continue;
    await db.execute(sql.raw(ix.def));
    changed = true;
  }
  if (changed) await db.execute(sql`analyze enquiries`);
  if (marker) rmSync(marker, { force: true });
  return changed;
}

async function indexExperiment(
  ctx: BenchContext,
  engine: Engine,
  app: FastifyInstance,
  token: string,
  bench: BenchDatabase,
  capture: QueryCapture,
  cases: Case[],
  before: Measured[],
): Promise<SummaryRow[]> {
  const { db } = bench.database;
  const budget = LIST_BUDGET_MS[engine];
  const listCases = cases.filter((c) => c.list);
  const state: ExperimentState = {
    dropped: await queryRows<{ name: string; def: string }>(
      db,
      sql`select indexname as name, indexdef as def from pg_indexes
           where tablename = 'enquiries' and indexname in (${sql.join(
             REPLACED_INDEXES.map((n) => sql`${n}`),
             sql`, `,
           )})`,
    ),
  };
  const marker = markerPath(bench);
  if (marker) writeFileSync(marker, JSON.stringify(state, null, 2));
  const ddl = async (text: string) => {
    const t0 = performance.now();
    await db.execute(sql.raw(text));
    ctx.log(`  ${text}  (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  };

  ctx.log(
    `\n### Experiment (BENCH_EXPERIMENT=indexes, ${ENGINE_LABEL[engine]}): proposed indexes, by raw SQL`,
  );
  try {
    // A: the updated_at pair (nothing orders by updated_at) replaced by a last_message_at pair.
    for (const ix of state.dropped) await ddl(`drop index ${ix.name}`);
    for (const ix of PROPOSED_INDEXES) {
      await ddl(`create index ${ix.name} ${ix.ddl}`);
      ctx.log(`    why: ${ix.why}`);
    }
    await db.execute(sql`analyze enquiries`);
    const afterA = await measureCases(ctx, app, token, listCases);
    const plansA = await explainCases(app, token, bench.database, capture, listCases);

    const rows: (string | number)[][] = [];
    const summary: SummaryRow[] = [];
    const compare = (variant: string, after: Measured[], plans: Planned[]) => {
      for (const a of after) {
        const b = before.find((x) => x.case.key === a.case.key);
        const p = plans.find((x) => x.case.key === a.case.key)?.plan;
        if (!b || !p) continue;
        const v = a.summary.p99 <= budget ? 'PASS' : 'OVER';
        rows.push([
          a.case.label,
          variant,
          ms(b.summary.p50),
          ms(a.summary.p50),
          ms(b.summary.p99),
          ms(a.summary.p99),
          `${(a.summary.p99 / b.summary.p99).toFixed(2)}x`,
          v,
          p.access,
          p.order,
        ]);
        summary.push({
          section: 'inbox',
          engine,
          what: `GET /enquiries ${a.case.label} [experiment ${variant}]`,
          result: `p99 ${ms(a.summary.p99)} ms`,
          budget: `≤ ${budget} ms`,
          verdict: v,
        });
      }
    };
    compare('A', afterA, plansA);
    ctx.log(
      table(
        [
          'case',
          'with',
          'p50 before',
          'p50 after',
          'p99 before',
          'p99 after',
          'p99 ratio',
          'verdict',
          'read by',
          'ORDER BY by',
        ],
        rows,
      ),
    );
    ctx.log(
      '  A = the enquiries (…, status[, assigned_to], last_message_at desc, id desc) pair instead of the updated_at pair',
    );
    return summary;
  } finally {
    await undoExperiment(bench, state);
    ctx.log('  (experiment undone: proposed indexes dropped, the replaced indexes rebuilt)');
  }
}
