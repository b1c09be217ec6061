import { createBoss, type DbOrTx, jobOutbox, queryRows } from '@switchboard/db';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import {
  type SendOptions as BossSendOptions,
  type DrizzleTransactionLike,
  fromDrizzle,
  type JobInsert,
  type JobResult,
  type JobWithMetadata,
  type PgBoss,
  type WorkOptions,
} from 'pg-boss';
import { type JobDefinition, sendOptionsOf } from '../jobs/define.ts';

export type JobHandler<T> = (job: JobWithMetadata<T>) => Promise<void>;
/**
 * Takes a whole batch and settles each job: `done` completes it, `retry` fails it so it runs again after its
 * definition's backoff (or for good once its retries are spent). A job left out is retried.
 */
export type BatchHandler<T> = (
  jobs: JobWithMetadata<T>[],
) => Promise<Map<string, { outcome: 'done' } | { outcome: 'retry'; reason: string }>>;

/**
 * pg-boss's send options, and `db`: a transaction (or the app's database) the job is written through, so it
 * is queued if and only if that transaction commits. The kind must be `prepare`d before such a transaction.
 */
export type SendOptions = Omit<BossSendOptions, 'db'> & { db?: DbOrTx };

/**
 * A job written to the outbox in the transaction of what it follows up, queued once that transaction has
 * committed (`release`). Its id is fixed, so a job released twice (after a crash, by the sweep) is queued once.
 */
export type OutboxEntry = { name: string; id: string; data: object; options: Record<string, unknown> };

export type Jobs = {
  boss: PgBoss;
  /** Queues a job of this kind; the payload is checked against the definition first. */
  send<T>(definition: JobDefinition<T>, data: T, options?: SendOptions): Promise<string | null>;
  /**
   * Makes this kind's queue ready to be sent to from inside a transaction: pg-boss looks a queue up on its
   * own connection, which the embedded database (one connection) cannot give while a transaction holds it.
   */
  prepare(definition: JobDefinition<unknown>): Promise<void>;
  /** Queues many jobs of this kind in one statement; `optionsOf` may give each its own (e.g. its id). */
  insert<T>(
    definition: JobDefinition<T>,
    data: T[],
    optionsOf?: (data: T) => Partial<JobInsert>,
  ): Promise<void>;
  /** Takes jobs of this kind one at a time; an exception retries the job per its definition. */
  work<T>(definition: JobDefinition<T>, handler: JobHandler<T>, options?: WorkOptions): Promise<void>;
  /** Takes up to `batchSize` jobs of this kind at a time and hands them over together (see BatchHandler). */
  workBatch<T>(definition: JobDefinition<T>, handler: BatchHandler<T>, options: WorkOptions): Promise<void>;
  /** A job of this kind to write to the outbox; `startAfter` as a moment, so it means the same when swept later. */
  entry<T>(
    definition: JobDefinition<T>,
    data: T,
    options: Omit<Partial<JobInsert>, 'id' | 'data' | 'startAfter'> & { id: string; startAfter?: Date },
  ): OutboxEntry;
  /** Writes entries to the outbox in the caller's transaction (one statement). */
  stage(tx: DbOrTx, entries: OutboxEntry[]): Promise<void>;
  /** After the commit: queues the entries (one statement per kind) and clears them from the outbox. */
  release(entries: OutboxEntry[]): Promise<void>;
  /**
   * Releases what a process that stopped left in the outbox, oldest first; entries younger than
   * `olderThanSeconds` are left to the process releasing them now. Returns how many it queued.
   */
  sweepOutbox(olderThanSeconds: number): Promise<number>;
  /** Jobs of this kind sent with this singleton key, in any state still kept. */
  findJobs(definition: JobDefinition<unknown>, singletonKey: string): Promise<JobWithMetadata<unknown>[]>;
};

declare module 'fastify' {
  interface FastifyInstance {
    jobs: Jobs;
  }
}

/** Writes outbox entries in the caller's transaction, in one statement (see `Jobs.stage`). */
export async function stageJobs(tx: DbOrTx, entries: OutboxEntry[]): Promise<void> {
  if (!entries.length) return;
  await tx
    .insert(jobOutbox)
    .values(entries.map((e) => ({ ...e, data: e.data as Record<string, unknown> })))
    .onConflictDoNothing();
}

/**
 * The durable job queue (pg-boss on the app's own database), started with the app and drained on close. It
 * only transports: job kinds live in `jobs/definitions/`, their workers are bound in `jobs/workers.ts`.
 */
export const jobsPlugin = fp(async (app: FastifyInstance) => {
  const boss = createBoss(app.database);
  boss.on('error', (error) => app.log.error({ err: error }, 'job queue error'));
  await boss.start();
  const queues = new Set<string>();
  const retryDelay = app.config.jobs.retryDelaySeconds;

  const ensureQueue = async (name: string) => {
    if (queues.has(name)) return;
    await boss.createQueue(name);
    // Creating evicts pg-boss's cached look-up of the queue; any read by name caches it again.
    await boss.getJobById(name, '00000000-0000-0000-0000-000000000000');
    queues.add(name);
  };

  /** The jobs whose payload parses; the others are logged and dropped (written by an older version or by hand). */
  function readable<T>(definition: JobDefinition<T>, batch: JobWithMetadata<unknown>[]) {
    const good: JobWithMetadata<T>[] = [];
    for (const job of batch) {
      const parsed = definition.payload.safeParse(job.data);
      if (parsed.success) good.push({ ...job, data: parsed.data });
      else
        app.log.error(
          { job: job.id, queue: definition.name, issues: parsed.error.issues },
          'bad job payload',
        );
    }
    return good;
  }

  const jobs: Jobs = {
    boss,
    async send(definition, data, options = {}) {
      const payload = definition.payload.parse(data);
      const { db, ...rest } = options;
      if (db && !queues.has(definition.name))
        throw new Error(`the ${definition.name} queue was not prepared before sending inside a transaction`);
      await ensureQueue(definition.name);
      return boss.send(definition.name, payload as object, {
        ...sendOptionsOf(definition, retryDelay),
        ...rest,
        ...(db ? { db: fromDrizzle(db as unknown as DrizzleTransactionLike, sql) } : {}),
      });
    },
    async prepare(definition) {
      await ensureQueue(definition.name);
    },
    async insert(definition, data, optionsOf) {
      if (!data.length) return;
      await ensureQueue(definition.name);
      const options = sendOptionsOf(definition, retryDelay) as Partial<JobInsert>;
      await boss.insert(
        definition.name,
        data.map((d) => ({ ...options, ...optionsOf?.(d), data: definition.payload.parse(d) as object })),
      );
    },
    entry(definition, data, { id, startAfter, ...options }) {
      return {
        name: definition.name,
        id,
        data: definition.payload.parse(data) as object,
        options: {
          ...sendOptionsOf(definition, retryDelay),
          ...options,
          ...(startAfter ? { startAfter: startAfter.toISOString() } : {}),
        },
      };
    },
    stage: stageJobs,
    async release(entries) {
      if (!entries.length) return;
      const byName = new Map<string, OutboxEntry[]>();
      for (const e of entries) byName.set(e.name, [...(byName.get(e.name) ?? []), e]);
      for (const [name, list] of byName) {
        await ensureQueue(name);
        await boss.insert(
          name,
          list.map((e) => ({ ...(e.options as Partial<JobInsert>), id: e.id, data: e.data })),
        );
      }
      await app.db.execute(
        sql`delete from job_outbox where (name, id) in (
              select * from unnest(${sql.param(entries.map((e) => e.name))}::text[],
                ${sql.param(entries.map((e) => e.id))}::uuid[]))`,
      );
    },
    async sweepOutbox(olderThanSeconds) {
      const left = await queryRows<OutboxEntry>(
        app.db,
        sql`select name, id, data, options from job_outbox
            where created_at <= now() - make_interval(secs => ${olderThanSeconds})
            order by created_at limit 1000`,
      );
      await jobs.release(left);
      return left.length;
    },
    async findJobs(definition, singletonKey) {
      await ensureQueue(definition.name);
      return boss.findJobs(definition.name, { key: singletonKey });
    },
    async work<T>(definition: JobDefinition<T>, handler: JobHandler<T>, options?: WorkOptions) {
      await ensureQueue(definition.name);
      const workOptions = {
        pollingIntervalSeconds: 0.5,
        batchSize: 1,
        ...options,
        includeMetadata: true,
      } as const;
      await boss.work<T, void, typeof workOptions>(definition.name, workOptions, async (batch) => {
        for (const job of readable(definition, batch)) await handler(job);
      });
    },
    async workBatch<T>(definition: JobDefinition<T>, handler: BatchHandler<T>, options: WorkOptions) {
      await ensureQueue(definition.name);
      const workOptions = {
        pollingIntervalSeconds: 0.5,
        burstWhenBatchFull: true,
        ...options,
        includeMetadata: true,
        perJobResults: true,
      } as const;
      await boss.work<T>(definition.name, workOptions, async (batch): Promise<JobResult[]> => {
        const good = readable(definition, batch as JobWithMetadata<unknown>[]);
        const goodIds = new Set(good.map((j) => j.id));
        const outcomes = await handler(good);
        return batch.map((job) => {
          const outcome = outcomes.get(job.id);
          // A payload nobody can read is done with: retrying cannot fix it.
          if (!outcome) return { id: job.id, status: goodIds.has(job.id) ? 'failed' : 'completed' };
          return outcome.outcome === 'done'
            ? { id: job.id, status: 'completed' }
            : { id: job.id, status: 'failed', output: { message: outcome.reason } };
        });
      });
    },
  };
  app.decorate('jobs', jobs);
  app.addHook('onClose', async () => {
    await boss.stop({ graceful: true, timeout: 5000 });
  });
});
