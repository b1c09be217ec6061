import type { SendOptions } from 'pg-boss';
import type { z } from 'zod';

/** How a job retries: the defaults of its definition, shortened by `JOB_RETRY_DELAY_SECONDS` (tests). */
export type RetryPolicy = { retryLimit: number; retryDelay: number; retryBackoff: boolean };

/**
 * A kind of background job: its queue name, the shape of its payload (checked when it is sent and when it is
 * taken), and how it retries. Handlers are bound to definitions in one place, `jobs/workers.ts`.
 */
export type JobDefinition<T> = {
  name: string;
  payload: z.ZodType<T>;
  retry: RetryPolicy;
  /** Further send options every job of this kind takes (e.g. `expireInSeconds`). */
  options?: SendOptions;
};

export const defineJob = <T>(definition: JobDefinition<T>): JobDefinition<T> => definition;

/** The definition's send options, with the configured retry delay override when there is one. */
export function sendOptionsOf(
  definition: JobDefinition<unknown>,
  retryDelayOverride: number | undefined,
): SendOptions {
  const retry =
    retryDelayOverride === undefined
      ? definition.retry
      : { ...definition.retry, retryDelay: retryDelayOverride, retryBackoff: false };
  return { ...retry, ...definition.options };
}
