import { createBoss } from '@switchboard/db';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { JobWithMetadata, PgBoss, SendOptions, WorkOptions } from 'pg-boss';
import { type JobDefinition, sendOptionsOf } from '../jobs/define.ts';

export type JobHandler<T> = (job: JobWithMetadata<T>) => Promise<void>;

export type Jobs = {
  boss: PgBoss;
  /** Queues a job of this kind; the payload is checked against the definition first. */
  send<T>(definition: JobDefinition<T>, data: T, options?: SendOptions): Promise<string | null>;
  /** Takes jobs of this kind one at a time; an exception retries the job per its definition. */
  work<T>(definition: JobDefinition<T>, handler: JobHandler<T>, options?: WorkOptions): Promise<void>;
  /** Jobs of this kind sent with this singleton key, in any state still kept. */
  findJobs(definition: JobDefinition<unknown>, singletonKey: string): Promise<JobWithMetadata<unknown>[]>;
};

declare module 'fastify' {
  interface FastifyInstance {
    jobs: Jobs;
  }
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
    queues.add(name);
  };

  const jobs: Jobs = {
    boss,
    async send(definition, data, options) {
      const payload = definition.payload.parse(data);
      await ensureQueue(definition.name);
      return boss.send(definition.name, payload as object, {
        ...sendOptionsOf(definition, retryDelay),
        ...options,
      });
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
        for (const job of batch) {
          const parsed = definition.payload.safeParse(job.data);
          if (!parsed.success) {
            // Written by an older version or by hand: retrying cannot fix it.
            app.log.error(
              { job: job.id, queue: definition.name, issues: parsed.error.issues },
              'bad job payload',
            );
            continue;
          }
          await handler({ ...job, data: parsed.data });
        }
      });
    },
  };
  app.decorate('jobs', jobs);
  app.addHook('onClose', async () => {
    await boss.stop({ graceful: true, timeout: 5000 });
  });
});
