/**
 * Inbound webhook ingest over real HTTP: signed Twilio inbound SMS (1,000 per round from 500 customers to
 * one location) against a bare Fastify handler that does one `INSERT … ON CONFLICT DO NOTHING` per request
 * on the same database — the plain "store before acknowledging" limit. The two run interleaved in rounds
 * (bare, webhook, bare, webhook, …) at each concurrency, so both see the same machine.
 *
 *   BENCH_INGEST_ROUNDS=3          rounds per concurrency
 *   BENCH_INGEST_REQUESTS=1000     requests per contestant per round
 *   BENCH_INGEST_CONCURRENCY=8,32  concurrent senders
 *
 * The load comes from a worker thread (its own event loop), over keep-alive connections to 127.0.0.1.
 * Logging is off for both contestants. Every acknowledged webhook is checked to be stored exactly once.
 */
import { rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { type Database, queryRows } from '@switchboard/db';
import { sql } from 'drizzle-orm';
import Fastify, { type FastifyInstance } from 'fastify';
import { getExpectedTwilioSignature } from 'twilio/lib/webhooks/webhooks.js';
import { buildApp } from '../../apps/server/src/app.ts';
import { connectAccount, demoOwner } from '../../apps/server/src/test/demo.ts';
import { testConfig } from '../../apps/server/src/test/helpers.ts';
import { TMP_DIR } from '../generate.ts';
import {
  type BenchContext,
  ENGINE_LABEL,
  type Engine,
  type Section,
  type SummaryRow,
} from '../lib/context.ts';
import { type CpuSnapshot, cpuSince, cpuSnapshot } from '../lib/cpu.ts';
import { openSectionDatabase } from '../lib/database.ts';
import type { LoadJob, LoadRequest, LoadResult } from '../lib/load-worker.ts';
import { ms, percentile, table } from '../lib/stats.ts';

export const PUBLIC_URL = 'https://bench.example.com';
const ACCOUNT_SID = `AC${'b'.repeat(32)}`;
const AUTH_TOKEN = 'benchbenchbenchbenchbenchbench12';
const LOCATION_NUMBER = '+15555550100';
const CUSTOMERS = 500;
const PG_INGEST_DB = 'switchboard_ingest';
export const WEBHOOK_PATH = '/webhooks/twilio/messaging';

type Contestant = 'bare' | 'webhook';
type Figures = { rps: number; p50: number; p99: number; n: number; failed: number };

export const ingestSection: Section = {
  name: 'ingest',
  async run(ctx) {
    const rows: SummaryRow[] = [];
    for (const engine of ctx.engines) rows.push(...(await runEngine(ctx, engine)));
    return rows;
  },
};

function listFromEnv(name: string, fallback: number[]): number[] {
  const raw = process.env[name];
  if (!raw) return fallback;
  const values = raw.split(',').map((s) => Number(s.trim()));
  if (values.some((n) => !Number.isInteger(n) || n < 1))
    throw new Error(`${name} must be positive whole numbers separated by commas, got ${JSON.stringify(raw)}`);
  return values;
}

async function openIngestDatabase(ctx: BenchContext, engine: Engine): Promise<Database> {
  const database = await openSectionDatabase(ctx, engine, PG_INGEST_DB);
  await database.db.execute(
    sql`create table if not exists bench_bare (id text primary key, sender text not null, body text not null, received_at timestamptz not null default now())`,
  );
  return database;
}

/** The baseline: parse the form, one insert, answer the same empty TwiML. */
async function startBare(database: Database): Promise<FastifyInstance> {
  const bare = Fastify({ logger: false });
  bare.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );
  bare.post('/bare', async (request, reply) => {
    const p = request.body as Record<string, string>;
    await database.db.execute(
      sql`insert into bench_bare (id, sender, body) values (${p.MessageSid}, ${p.From}, ${p.Body}) on conflict do nothing`,
    );
    return reply.type('text/xml').send('<?xml version="1.0" encoding="UTF-8"?><Response></Response>');
  });
  await bare.listen({ port: 0, host: '127.0.0.1' });
  return bare;
}

function origin(app: FastifyInstance): string {
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('bench: the server has no TCP address');
  return `http://127.0.0.1:${address.port}`;
}

/** `count` signed inbound SMS with fresh message ids, from `customers` distinct numbers. */
export function inboundRequests(
  tag: string,
  count: number,
  path: string,
  signed: boolean,
  customers = CUSTOMERS,
): LoadRequest[] {
  return Array.from({ length: count }, (_, i) => {
    const params: Record<string, string> = {
      AccountSid: ACCOUNT_SID,
      ApiVersion: '2010-04-01',
      Body: `Yes please, book me in (${i})`,
      From: `+1555701${String(i % customers).padStart(4, '0')}`,
      MessageSid: `SM${`${tag}${i}`.padStart(32, '0')}`,
      NumMedia: '0',
      SmsStatus: 'received',
      To: LOCATION_NUMBER,
    };
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
    if (signed)
      headers['x-twilio-signature'] = getExpectedTwilioSignature(AUTH_TOKEN, `${PUBLIC_URL}${path}`, params);
    return { path, headers, body: new URLSearchParams(params).toString() };
  });
}

export function load(job: LoadJob): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    // Node 20 does not pass `--import tsx` on to a worker's entry file: the worker registers tsx itself.
    const entry = new URL('../lib/load-worker.ts', import.meta.url).href;
    const boot = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); })`;
    const worker = new Worker(boot, { eval: true, workerData: job });
    worker.once('message', (result: LoadResult) => resolve(result));
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`bench: the load worker exited with ${code}`));
    });
  });
}

function figures(results: LoadResult[]): Figures {
  const latencies = results.flatMap((r) => r.latencies).sort((a, b) => a - b);
  const wall = results.reduce((s, r) => s + r.wallMs, 0);
  const failed = results.reduce((s, r) => s + Object.values(r.failures).reduce((a, b) => a + b, 0), 0);
  return {
    rps: (latencies.length / wall) * 1000,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    n: latencies.length,
    failed,
  };
}

async function runEngine(ctx: BenchContext, engine: Engine): Promise<SummaryRow[]> {
  const rounds = listFromEnv('BENCH_INGEST_ROUNDS', [3])[0] ?? 3;
  const perRound = listFromEnv('BENCH_INGEST_REQUESTS', [1000])[0] ?? 1000;
  const concurrencies = listFromEnv('BENCH_INGEST_CONCURRENCY', [8, 32]);
  ctx.log(`\n## Webhook ingest — ${ENGINE_LABEL[engine]}`);

  const database = await openIngestDatabase(ctx, engine);
  const dataDir = join(TMP_DIR, `bench-ingest-app-${engine}`);
  const twilio = await fakeTwilioAccount();
  const app = await buildApp(
    testConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', PUBLIC_URL, TWILIO_API_BASE: twilio.url }),
    { database },
  );
  const bare = await startBare(database);
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    await connectTwilio(app);

    const rows: SummaryRow[] = [];
    const table_: (string | number)[][] = [];
    const cpuTable: (string | number)[][] = [];
    for (const concurrency of concurrencies) {
      const results: Record<Contestant, LoadResult[]> = { bare: [], webhook: [] };
      const cpu: Record<Contestant, CpuSnapshot | null> = {
        bare: { main: 0, other: 0, postgres: 0 },
        webhook: { main: 0, other: 0, postgres: 0 },
      };
      for (let round = 0; round < rounds; round++) {
        for (const who of ['bare', 'webhook'] as const) {
          const tag = `${engine === 'postgres' ? 'p' : 'l'}${concurrency}r${round}${who === 'bare' ? 'b' : 'w'}`;
          const requests = inboundRequests(
            tag,
            perRound,
            who === 'bare' ? '/bare' : WEBHOOK_PATH,
            who === 'webhook',
          );
          const before = cpuSnapshot();
          const result = await load({ origin: origin(who === 'bare' ? bare : app), concurrency, requests });
          const spent = cpuSince(before);
          const sum = cpu[who];
          cpu[who] =
            spent && sum
              ? {
                  main: sum.main + spent.main,
                  other: sum.other + spent.other,
                  postgres: sum.postgres + spent.postgres,
                }
              : null;
          if (result.samples.length)
            ctx.log(`  ${who} c=${concurrency} round ${round + 1} failures: ${result.samples.join(' | ')}`);
          results[who].push(result);
        }
      }
      const b = figures(results.bare);
      const w = figures(results.webhook);
      const ratio = w.rps / b.rps;
      for (const who of ['bare', 'webhook'] as const) {
        const spent = cpu[who];
        const n = figures(results[who]).n;
        if (spent && n)
          cpuTable.push([
            concurrency,
            who,
            (spent.main / n).toFixed(3),
            engine === 'postgres' ? (spent.postgres / n).toFixed(3) : 'in server',
            (spent.other / n).toFixed(3),
          ]);
      }
      table_.push([
        concurrency,
        Math.round(b.rps),
        ms(b.p50),
        ms(b.p99),
        Math.round(w.rps),
        ms(w.p50),
        ms(w.p99),
        `${w.failed}`,
        ratio.toFixed(2),
      ]);
      if (concurrency >= 32) {
        rows.push({
          section: 'ingest',
          engine,
          what: `webhook req/s at c=${concurrency} vs bare insert`,
          result: `${Math.round(w.rps)} vs ${Math.round(b.rps)} (×${ratio.toFixed(2)})`,
          budget: '≥ ×1.00',
          verdict: ratio >= 1 && w.failed === 0 ? 'PASS' : 'OVER',
        });
      } else {
        rows.push({
          section: 'ingest',
          engine,
          what: `webhook p99 at c=${concurrency} vs bare insert`,
          result: `${ms(w.p99)} vs ${ms(b.p99)} ms`,
          budget: '≤ 2× bare p99',
          verdict: w.p99 <= 2 * b.p99 && w.failed === 0 ? 'PASS' : 'OVER',
        });
      }
    }
    ctx.log(
      `${rounds} interleaved rounds × ${perRound} requests per contestant per concurrency; signed Twilio inbound SMS ` +
        `from ${CUSTOMERS} numbers to one location; latency in ms, as the sender saw it.`,
    );
    ctx.log(
      table(
        [
          'c',
          'bare req/s',
          'bare p50',
          'bare p99',
          'webhook req/s',
          'webhook p50',
          'webhook p99',
          'failed',
          'ratio',
        ],
        table_,
      ),
    );
    if (cpuTable.length) {
      ctx.log(
        'CPU ms per request: the server’s main thread (with PGlite, the database too), the PostgreSQL server, ' +
          'and this process’s other threads (the load generator, libuv, V8 helpers). Ticks are 10 ms.',
      );
      ctx.log(table(['c', 'contestant', 'server', 'database', 'load and helpers'], cpuTable));
    }
    const [row] = await queryRows<{ n: number; distinct_ids: number }>(
      database.db,
      sql`select count(*)::int as n, count(distinct provider_message_id)::int as distinct_ids from messages where provider = 'twilio' and direction = 'in'`,
    );
    const sent = rounds * perRound * concurrencies.length;
    ctx.log(
      `Stored inbound messages: ${row?.n} (${row?.distinct_ids} distinct provider ids) of ${sent} webhooks sent.`,
    );
    return rows;
  } finally {
    await bare.close();
    await app.close();
    await twilio.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Twilio's answer to `IncomingPhoneNumbers.json?PhoneNumber=`: the account owns that number. */
export const ownedNumberAnswer = (phoneNumber: string): string =>
  JSON.stringify({ incoming_phone_numbers: [{ sid: `PN${'0'.repeat(32)}`, phone_number: phoneNumber }] });

/**
 * Twilio as far as connecting an account asks (`IncomingPhoneNumbers.json`): the location's number is the
 * account's own. The app under test is given its URL as TWILIO_API_BASE.
 */
export async function fakeTwilioAccount(
  account: { sid: string; number: string } = { sid: ACCOUNT_SID, number: LOCATION_NUMBER },
): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((req, res) => {
    req.resume();
    const owned =
      req.method === 'GET' && req.url?.includes(`/Accounts/${account.sid}/IncomingPhoneNumbers.json`);
    res.writeHead(owned ? 200 : 404, { 'content-type': 'application/json' });
    res.end(owned ? ownedNumberAnswer(account.number) : '{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export async function connectTwilio(app: FastifyInstance): Promise<void> {
  const owner = await demoOwner(app);
  await connectAccount(app, owner.token, {
    location_id: owner.locations[0]!,
    provider: 'twilio',
    config: { account_sid: ACCOUNT_SID, auth_token: AUTH_TOKEN, phone_number: LOCATION_NUMBER },
  });
}
