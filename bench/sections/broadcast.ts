/**
 * Live updates: a new message broadcast to 500 connected staff sockets of its location, timed from the moment
 * the server emits it to its arrival at each socket. Once on one node, and once on two nodes sharing a Redis
 * (250 sockets on each, messages arriving at the first), as a deployment with several nodes runs.
 *
 *   BENCH_BROADCAST_SOCKETS=500   staff sockets
 *   BENCH_BROADCAST_MESSAGES=30   messages, 100 ms apart
 *
 * The sockets live in a worker thread (their own event loop). The database is the first engine of the run;
 * broadcasting does not touch it.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Database } from '@switchboard/db';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../apps/server/src/app.ts';
import { demoOwner, signIn } from '../../apps/server/src/test/demo.ts';
import { DEMO_LOGINS, testConfig } from '../../apps/server/src/test/helpers.ts';
import { startRedis } from '../../apps/server/src/test/server-process.ts';
import { TMP_DIR } from '../generate.ts';
import { ENGINE_LABEL, type Section, type SummaryRow } from '../lib/context.ts';
import { openSectionDatabase } from '../lib/database.ts';
import { startSocketPool } from '../lib/socket-pool.ts';
import { ms, percentile, table } from '../lib/stats.ts';

const PG_DB = 'switchboard_broadcast';
const now = () => performance.timeOrigin + performance.now();

export const broadcastSection: Section = {
  name: 'broadcast',
  async run(ctx) {
    const sockets = Number(process.env.BENCH_BROADCAST_SOCKETS ?? 500);
    const messages = Number(process.env.BENCH_BROADCAST_MESSAGES ?? 30);
    const engine = ctx.engines[0]!;
    ctx.log(`\n## Live broadcast to ${sockets} staff sockets — ${ENGINE_LABEL[engine]}`);
    const database = await openSectionDatabase(ctx, engine, PG_DB);
    const rows: SummaryRow[] = [];
    const lines: (string | number)[][] = [];
    try {
      const single = await measure(database, [undefined], sockets, messages, 'one');
      lines.push(['one node', ...single.cells]);
      rows.push(
        summary(engine, `one message → ${sockets} sockets, one node`, single.p99, 100, single.complete),
      );
      const redis = await startRedis();
      if (!redis) {
        ctx.log(
          'redis-server is not installed: the two-node case is left out (apt-get install redis-server).',
        );
      } else {
        try {
          const two = await measure(database, [redis.url, redis.url], sockets, messages, 'two');
          lines.push(['two nodes, Redis', ...two.cells]);
          rows.push(
            summary(
              engine,
              `one message → ${sockets} sockets, two nodes through Redis`,
              two.p99,
              150,
              two.complete,
            ),
          );
        } finally {
          redis.stop();
        }
      }
    } finally {
      await database.close();
    }
    ctx.log(
      `${messages} messages 100 ms apart; latency from the server's emit to each socket's receipt, in ms.`,
    );
    ctx.log(table(['case', 'deliveries', 'p50', 'p99', 'max'], lines));
    return rows;
  },
};

function summary(engine: SummaryRow['engine'], what: string, p99: number, budget: number, complete: boolean) {
  return {
    section: 'broadcast',
    engine,
    what,
    result: `p99 ${ms(p99)} ms${complete ? '' : ' (some sockets missed messages)'}`,
    budget: `≤ ${budget} ms`,
    verdict: p99 <= budget && complete ? 'PASS' : 'OVER',
  } satisfies SummaryRow;
}

/** `redisUrls` has one entry per node (undefined: no Redis); every node shares the one database. */
async function measure(
  database: Database,
  redisUrls: (string | undefined)[],
  sockets: number,
  messages: number,
  tag: string,
) {
  const apps: FastifyInstance[] = [];
  try {
    for (const [i, redis] of redisUrls.entries()) {
      const app = await buildApp(
        testConfig({
          DATA_DIR: join(TMP_DIR, `bench-broadcast-${tag}-${i}`),
          LOG_LEVEL: 'silent',
          ...(redis ? { REDIS_URL: redis } : {}),
        }),
        { database },
      );
      await app.listen({ port: 0, host: '127.0.0.1' });
      apps.push(app);
    }
    const [first] = apps as [FastifyInstance];
    const staff = await signIn(first, DEMO_LOGINS.staff1);
    const { token: owner, locations } = await demoOwner(first);
    const location = locations[0]!;

    const urls = apps.map((a) => {
      const address = a.server.address();
      if (!address || typeof address === 'string') throw new Error('bench: no address');
      return `http://127.0.0.1:${address.port}`;
    });
    const pool = await startSocketPool({ urls, token: staff, count: sockets });

    const emitted = new Map<string, number>();
    first.events.prependListener('message.created', ({ message }) => {
      emitted.set(message.id, now());
    });
    for (let i = 0; i < messages; i++) {
      const res = await first.inject({
        method: 'POST',
        url: '/api/v1/sandbox/inbound',
        headers: { authorization: `Bearer ${owner}` },
        payload: {
          channel: 'sms',
          location_id: location,
          from: { phone: `+614915${70000 + i}` },
          message: `Broadcast ${i}`,
        },
      });
      if (res.statusCode !== 200) throw new Error(`bench: inbound failed: ${res.body}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    await new Promise((r) => setTimeout(r, 500));
    const result = await pool.stop();
    const latencies: number[] = [];
    let complete = true;
    for (const [id, at] of emitted) {
      const arrivals = result.arrivals[id] ?? [];
      if (arrivals.length !== sockets) complete = false;
      for (const t of arrivals) latencies.push(t - at);
    }
    latencies.sort((a, b) => a - b);
    const p99 = percentile(latencies, 99);
    return {
      p99,
      complete,
      cells: [
        `${latencies.length} of ${emitted.size * sockets}`,
        ms(percentile(latencies, 50)),
        ms(p99),
        ms(latencies.at(-1) ?? Number.NaN),
      ],
    };
  } finally {
    for (const app of apps) await app.close();
    for (const [i] of redisUrls.entries()) {
      rmSync(join(TMP_DIR, `bench-broadcast-${tag}-${i}`), { recursive: true, force: true });
    }
  }
}
