import { fromPglite, PgBoss } from 'pg-boss';
import type { Database } from './client.ts';

/**
 * pg-boss on the same database as the data: through its own PGlite adapter on the embedded engine, by
 * connection string on PostgreSQL. Jobs are rows, so a queued send survives a restart.
 */
/**
 * Expired and heartbeat-less jobs (their node died) are looked for every few seconds rather than every minute,
 * so a restarted or surviving node takes them over quickly.
 */
const OPTIONS = { schedule: false, superviseIntervalSeconds: 5, monitorIntervalSeconds: 5 };

export function createBoss(database: Database): PgBoss {
  if (database.engine === 'pglite') {
    if (!database.pglite) throw new Error('createBoss: the embedded database has no PGlite handle');
    return new PgBoss({ db: fromPglite(database.pglite), backend: 'pglite', ...OPTIONS } as never);
  }
  return new PgBoss({ connectionString: database.url, max: 4, ...OPTIONS } as never);
}

/** Installs pg-boss's schema (a first start does this anyway; the test template does it once for all suites). */
export async function installJobSchema(database: Database): Promise<void> {
  const boss = createBoss(database);
  boss.on('error', () => {});
  await boss.start();
  await boss.stop({ graceful: false });
}
