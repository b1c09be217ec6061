import { createBoss } from '@switchboard/db';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { JobWithMetadata, PgBoss, SendOptions, WorkOptions } from 'pg-boss';

export type JobHandler<T> = (job: JobWithMetadata<T>) => Promise<void>;

export type Jobs = {
  boss: PgBoss;
  send<T extends object>(queue: string, data: T, options?: SendOptions): Promise<string | null>;
  /** Registers a worker taking one job at a time; an exception retries the job per its retry options. */
  work<T>(queue: string, handler: JobHandler<T>, options?: WorkOptions): Promise<void>;
  /** The queue's jobs sent with this singleton key, in any state still kept. */
  findJobs(queue: string, singletonKey: string): Promise<JobWithMetadata<unknown>[]>;
};

declare module 'fastify' {
  interface FastifyInstance {
    jobs: Jobs;
  }
}

/** The durable job queue (pg-boss on the app's own database), started with the app and drained on close. */
export const jobsPlugin = fp(async (app: FastifyInstance) => {
  const boss = createBoss(app.database);
  boss.on('error', (error) => app.log.error({ err: error }, 'job queue error'));
  await boss.start();
  const queues = new Set<string>();

  const ensureQueue = async (name: string) => {
    if (queues.has(name)) return;
    await boss.createQueue(name);
    queues.add(name);
  };

  const jobs: Jobs = {
    boss,
    async send(queue, data, options) {
      await ensureQueue(queue);
      return boss.send(queue, data, options ?? {});
    },
    async findJobs(queue, singletonKey) {
      await ensureQueue(queue);
      return boss.findJobs(queue, { key: singletonKey });
    },
    async work<T>(queue: string, handler: JobHandler<T>, options?: WorkOptions) {
      await ensureQueue(queue);
      const workOptions = {
        pollingIntervalSeconds: 0.5,
        batchSize: 1,
        ...options,
        includeMetadata: true,
      } as const;
      await boss.work<T, void, typeof workOptions>(queue, workOptions, async (batch) => {
        for (const job of batch) await handler(job);
      });
    },
  };
  app.decorate('jobs', jobs);
  app.addHook('onClose', async () => {
    await boss.stop({ graceful: true, timeout: 5000 });
  });
});
