/**
 * Outbound drain: 1,000 replies queued at once (stored as the send route stores them, one send job each), timed
 * from queuing until none is left queued, through the sandbox provider and through a fake Twilio API on
 * loopback. The baseline, interleaved in the same rounds, is the fake Twilio itself: 1,000 form POSTs to it
 * straight from this process at the send worker's per-account concurrency, i.e. what the provider side allows.
 *
 *   BENCH_OUTBOUND_ROUNDS=3       rounds per provider
 *   BENCH_OUTBOUND_MESSAGES=1000  replies per round
 */

import { rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { enquiries, messages, queryRows } from '@switchboard/db';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../apps/server/src/app.ts';
import { messageSend } from '../../apps/server/src/jobs/definitions/message-send.ts';
import { ACCOUNT_CONCURRENCY } from '../../apps/server/src/modules/messages/sending.ts';
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
import { openSectionDatabase } from '../lib/database.ts';
import { percentile, table } from '../lib/stats.ts';
import { ownedNumberAnswer } from './ingest.ts';

const median = (list: number[]) =>
  percentile(
    [...list].sort((a, b) => a - b),
    50,
  );

const ACCOUNT_SID = `AC${'c'.repeat(32)}`;
const AUTH_TOKEN = 'benchbenchbenchbenchbenchbench34';
const NUMBER = '+15555550100';
const THREADS = 100;
const PG_DB = 'switchboard_outbound';

export const outboundSection: Section = {
  name: 'outbound',
  async run(ctx) {
    const rows: SummaryRow[] = [];
    for (const engine of ctx.engines) rows.push(...(await runEngine(ctx, engine)));
    return rows;
  },
};

const count = (name: string, fallback: number) => {
  const n = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive whole number`);
  return n;
};

/** Twilio's Messages API answering at once, counting what it took. */
async function fakeTwilio(): Promise<{ server: Server; url: string; taken: () => number }> {
  let taken = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      // Connecting the account asks whether the number is the account's own: it is.
      if (req.method === 'GET' && req.url?.includes('/IncomingPhoneNumbers.json')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(ownedNumberAnswer(NUMBER));
        return;
      }
      taken++;
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ sid: `SM${taken.toString(16).padStart(32, '0')}`, status: 'queued' }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, taken: () => taken };
}

/** Customers writing in at a location: the threads replies go to. */
async function openThreads(
  app: FastifyInstance,
  token: string,
  location: string,
  channel: string,
  offset: number,
) {
  for (let i = 0; i < THREADS; i++) {
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/sandbox/inbound',
      headers: { authorization: `Bearer ${token}` },
      payload: {
        channel,
        location_id: location,
        from: { phone: `+614915${70000 + offset + i}` },
        message: 'Hi',
      },
    });
    if (res.statusCode !== 200)
      throw new Error(`bench: opening a thread failed: ${res.statusCode} ${res.body}`);
  }
  return app.database.db
    .select({ id: enquiries.id, business_id: enquiries.business_id, customer_id: enquiries.customer_id })
    .from(enquiries)
    .where(and(eq(enquiries.location_id, location), eq(enquiries.channel, channel)));
}

/** Stores `n` replies as queued and queues their jobs, then waits until none is queued; ms taken. */
async function drain(
  app: FastifyInstance,
  threads: { id: string; business_id: string; customer_id: string }[],
  n: number,
  tag: string,
): Promise<number> {
  const started = performance.now();
  const rows = await app.database.db
    .insert(messages)
    .values(
      Array.from({ length: n }, (_, i) => {
        const t = threads[i % threads.length]!;
        return {
          business_id: t.business_id,
          enquiry_id: t.id,
          customer_id: t.customer_id,
          channel: 'sms',
          direction: 'out' as const,
          message: `Bench reply ${tag} ${i}`,
          status: 'queued' as const,
        };
      }),
    )
    .returning({ id: messages.id });
  await app.jobs.insert(
    messageSend,
    rows.map((r) => ({ message_id: r.id })),
    (d) => ({ id: d.message_id }),
  );
  const ids = rows.map((r) => r.id);
  for (;;) {
    const [left] = await queryRows<{ n: number }>(
      app.database.db,
      sql`select count(*)::int as n from messages where status = 'queued' and id = any(${sql.raw(`array[${ids.map((id) => `'${id}'::uuid`).join(',')}]`)})`,
    );
    if (!left?.n) break;
    if (performance.now() - started > 120_000)
      throw new Error(`bench: ${left.n} replies still queued after 2 min`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return performance.now() - started;
}

/** The baseline: `n` POSTs to the fake Twilio at the worker's per-account concurrency. */
async function direct(url: string, n: number): Promise<number> {
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: ACCOUNT_CONCURRENCY }, async () => {
      while (next < n) {
        const i = next++;
        const res = await fetch(`${url}/2010-04-01/Accounts/${ACCOUNT_SID}/Messages.json`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ To: '+15555550000', From: NUMBER, Body: `Direct ${i}` }).toString(),
        });
        await res.arrayBuffer();
      }
    }),
  );
  return performance.now() - started;
}

async function runEngine(ctx: BenchContext, engine: Engine): Promise<SummaryRow[]> {
  const rounds = count('BENCH_OUTBOUND_ROUNDS', 3);
  const n = count('BENCH_OUTBOUND_MESSAGES', 1000);
  ctx.log(`\n## Outbound drain — ${ENGINE_LABEL[engine]}`);
  const twilio = await fakeTwilio();
  const database = await openSectionDatabase(ctx, engine, PG_DB);
  const dataDir = join(TMP_DIR, `bench-outbound-app-${engine}`);
  const app = await buildApp(
    testConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', TWILIO_API_BASE: twilio.url, SANDBOX_MODE: 'true' }),
    { database },
  );
  try {
    await app.ready();
    const { token, business_id, locations } = await demoOwner(app);
    const [twilioLocation, sandboxLocation] = locations as [string, string];
    await database.db.execute(
      sql`update businesses set message_limit = 1000000 where id = ${business_id}::uuid`,
    );
    await connectAccount(app, token, {
      location_id: twilioLocation,
      provider: 'twilio',
      config: { account_sid: ACCOUNT_SID, auth_token: AUTH_TOKEN, phone_number: NUMBER },
    });
    const twilioThreads = await openThreads(app, token, twilioLocation, 'sms', 0);
    const sandboxThreads = await openThreads(app, token, sandboxLocation, 'sms', 500);

    const times = { direct: [] as number[], twilio: [] as number[], sandbox: [] as number[] };
    const takenBefore = twilio.taken();
    for (let round = 0; round < rounds; round++) {
      times.direct.push(await direct(twilio.url, n));
      times.twilio.push(await drain(app, twilioThreads, n, `${engine}t${round}`));
      times.sandbox.push(await drain(app, sandboxThreads, n, `${engine}s${round}`));
    }
    const perSecond = (list: number[]) => (n / median(list)) * 1000;
    const rate = {
      direct: perSecond(times.direct),
      twilio: perSecond(times.twilio),
      sandbox: perSecond(times.sandbox),
    };
    const sentToTwilio = twilio.taken() - takenBefore - rounds * n;
    ctx.log(
      `${rounds} interleaved rounds × ${n} replies; the median round. Baseline: ${n} POSTs to the same fake Twilio at ` +
        `concurrency ${ACCOUNT_CONCURRENCY}, straight from the benchmark.`,
    );
    ctx.log(
      table(
        ['what', 'msgs/s', 'ms per round'],
        [
          ['fake Twilio, direct POSTs (baseline)', Math.round(rate.direct), Math.round(median(times.direct))],
          ['queued replies → fake Twilio', Math.round(rate.twilio), Math.round(median(times.twilio))],
          ['queued replies → sandbox', Math.round(rate.sandbox), Math.round(median(times.sandbox))],
        ],
      ),
    );
    ctx.log(`Twilio took ${sentToTwilio} replies for ${rounds * n} queued (each exactly once when equal).`);
    return (['twilio', 'sandbox'] as const).map((who) => ({
      section: 'outbound',
      engine,
      what: `${n.toLocaleString('en')} queued replies drained → ${who === 'twilio' ? 'fake Twilio' : 'sandbox'}`,
      result: `${Math.round(rate[who])} msgs/s (provider alone ${Math.round(rate.direct)}/s)`,
      budget: '≥ 500 msgs/s',
      verdict: rate[who] >= 500 && (who !== 'twilio' || sentToTwilio === rounds * n) ? 'PASS' : 'OVER',
    }));
  } finally {
    await app.close();
    await database.close();
    await new Promise<void>((r) => twilio.server.close(() => r()));
    rmSync(dataDir, { recursive: true, force: true });
  }
}
