import { queryRows } from '@switchboard/db';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { z } from 'zod';

/** What the server counts for `/metrics`: ids and names only, never a message's text or a person's details. */
export type Metrics = {
  registry: Registry;
  /** Inbound messages by provider: `stored`, or `duplicate` (a provider's repeat, stored before). */
  inbound: Counter<'provider' | 'outcome'>;
  /** Send attempts by provider: `sent`, `retry` (will be tried again) or `failed`. */
  sends: Counter<'provider' | 'outcome'>;
};

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Metrics;
  }
}

const CHECK_TIMEOUT_MS = 2000;

/** Process metrics (memory, CPU, event-loop delay) are the process's, collected once however many apps it runs. */
let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry, prefix: 'switchboard_' });
  }
  return processRegistry;
}

const HealthAnswer = z.object({ status: z.literal('ok') });
const ReadyAnswer = z.object({
  status: z.enum(['ready', 'not ready']),
  checks: z.record(z.string(), z.string()),
});

function withTimeout<T>(promise: Promise<T>, what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${what} did not answer in ${CHECK_TIMEOUT_MS} ms`)),
      CHECK_TIMEOUT_MS,
    );
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/**
 * Health, readiness and metrics for whoever runs the server (DESIGN §10): `/healthz` says the process is up;
 * `/readyz` that it can serve (database, Redis when configured, the job queue) and turns 503 as soon as a
 * shutdown starts, so a load balancer stops sending before in-flight requests drain; `/metrics` is Prometheus
 * text (requests by route, inbound and sends by provider, queue depth and age, live sockets). With
 * METRICS_TOKEN set, `/metrics` wants it as a bearer token.
 */
export const observabilityPlugin = fp(async (app: FastifyInstance) => {
  const registry = new Registry();

  const requests = new Histogram({
    name: 'switchboard_http_request_duration_seconds',
    help: 'HTTP requests by method, route pattern and status, and how long they took.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const metrics: Metrics = {
    registry,
    inbound: new Counter({
      name: 'switchboard_inbound_messages_total',
      help: 'Inbound messages handed to the inbox, by provider and outcome (stored, duplicate).',
      labelNames: ['provider', 'outcome'] as const,
      registers: [registry],
    }),
    sends: new Counter({
      name: 'switchboard_message_sends_total',
      help: 'Attempts to send a message through a provider, by provider and outcome (sent, retry, failed).',
      labelNames: ['provider', 'outcome'] as const,
      registers: [registry],
    }),
  };
  app.decorate('metrics', metrics);

  new Gauge({
    name: 'switchboard_socket_connections',
    help: 'Live Socket.IO connections (staff and website chat) on this node.',
    registers: [registry],
    collect() {
      this.set(app.hasDecorator('io') ? app.io.engine.clientsCount : 0);
    },
  });
  const queued = new Gauge({
    name: 'switchboard_job_queue_ready',
    help: 'Jobs waiting to run now, by queue.',
    labelNames: ['queue'] as const,
    registers: [registry],
  });
  const active = new Gauge({
    name: 'switchboard_job_queue_active',
    help: 'Jobs running, by queue.',
    labelNames: ['queue'] as const,
    registers: [registry],
  });
  const age = new Gauge({
    name: 'switchboard_job_queue_oldest_seconds',
    help: 'Age of the oldest job waiting to run now, by queue (0 when none waits).',
    labelNames: ['queue'] as const,
    registers: [registry],
  });
  async function collectQueues() {
    const queues = await app.jobs.boss.getQueues();
    const oldest = await queryRows<{ name: string; seconds: number }>(
      app.db,
      sql`select name, extract(epoch from now() - min(created_on))::float8 as seconds from pgboss.job
          where state in ('created', 'retry') and start_after <= now() group by name`,
    );
    queued.reset();
    active.reset();
    age.reset();
    for (const q of queues) {
      queued.set({ queue: q.name }, q.readyCount);
      active.set({ queue: q.name }, q.activeCount);
      age.set({ queue: q.name }, oldest.find((o) => o.name === q.name)?.seconds ?? 0);
    }
  }

  app.addHook('onResponse', async (request, reply) => {
    requests.observe(
      {
        method: request.method,
        route: request.routeOptions.url ?? 'unmatched',
        status: String(reply.statusCode),
      },
      reply.elapsedTime / 1000,
    );
  });

  let draining = false;
  app.addHook('preClose', async () => {
    draining = true;
  });

  app.get('/healthz', { schema: { response: { 200: HealthAnswer } } }, async () => ({
    status: 'ok' as const,
  }));

  app.get(
    '/readyz',
    { schema: { response: { 200: ReadyAnswer, 503: ReadyAnswer } } },
    async (_request, reply) => {
      const checks: Record<string, string> = {};
      const run = async (name: string, check: () => Promise<unknown>) => {
        try {
          await withTimeout(check(), name);
          checks[name] = 'ok';
        } catch (error) {
          checks[name] = error instanceof Error ? error.message : String(error);
        }
      };
      if (!app.limiter.shared) checks.redis = 'not configured';
      await Promise.all([
        run('database', () => app.db.execute(sql`select 1`)),
        app.limiter.shared ? run('redis', () => app.limiter.ping()) : null,
        run('jobs', () => app.jobs.boss.getQueues()),
      ]);
      if (draining) checks.server = 'shutting down';
      const ready = !draining && Object.values(checks).every((c) => c === 'ok' || c === 'not configured');
      return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not ready', checks });
    },
  );

  app.get('/metrics', async (request, reply) => {
    const token = app.config.metricsToken;
    if (token && request.headers.authorization !== `Bearer ${token}`) {
      return reply.code(401).type('text/plain').send('Send the metrics token as a bearer token.\n');
    }
    try {
      await collectQueues();
    } catch (error) {
      app.log.warn({ err: error }, 'metrics: the job queue could not be read');
    }
    const all = Registry.merge([processMetrics(), registry]);
    return reply.type(all.contentType).send(await all.metrics());
  });
});
