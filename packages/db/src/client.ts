import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { SQL } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { acquireDataDirLock } from './data-dir-lock.ts';
import * as schema from './schema.ts';

export { DataDirLockedError } from './data-dir-lock.ts';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** Either the database or an open transaction: services take this so callers can compose them. */
export type DbOrTx = Db | Tx;

export type Database = {
  db: Db;
  engine: 'pglite' | 'postgres';
  /** The embedded engine, when it is the one in use (pg-boss needs it for its own adapter). */
  pglite?: PGlite;
  /** The pool, when PostgreSQL is in use. */
  pool?: pg.Pool;
  url?: string;
  close(): Promise<void>;
};

export const migrationsFolder = resolve(dirname(fileURLToPath(import.meta.url)), '../migrations');

/**
 * Opens an embedded PGlite with the extensions the migrations create (the inbox search's pg_trgm and
 * btree_gin): PGlite loads an extension's code only when it is named here.
 */
export function createPglite(options: Omit<PGliteOptions, 'extensions'> = {}): Promise<PGlite> {
  return PGlite.create({ ...options, extensions: { pg_trgm, btree_gin } });
}

type OpenOptions =
  | { databaseUrl: string; poolSize?: number }
  | { dataDir: string }
  | { pglite: PGlite }
  | { memory: true };

/** Opens the database named by the options: PostgreSQL by URL, or the embedded PGlite in a directory. */
export async function openDatabase(options: OpenOptions): Promise<Database> {
  if ('databaseUrl' in options) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 10 });
    // An idle connection the server ends (a restart, a failover) must not crash the process: the pool drops
    // that client and opens a new one for the next query.
    pool.on('error', (error) => console.warn(`PostgreSQL connection lost: ${error.message}`));
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    return { db, engine: 'postgres', pool, url: options.databaseUrl, close: () => pool.end() };
  }
  if ('pglite' in options) {
    const db = drizzlePglite(options.pglite, { schema }) as unknown as Db;
    return { db, engine: 'pglite', pglite: options.pglite, close: () => options.pglite.close() };
  }
  if ('memory' in options) {
    const pglite = await createPglite();
    return openDatabase({ pglite });
  }
  const dir = resolve(options.dataDir);
  mkdirSync(dir, { recursive: true });
  // Two processes on one PGlite directory silently lose writes: only one may hold it.
  const lock = await acquireDataDirLock(dir);
  let pglite: PGlite;
  try {
    pglite = await createPglite({ dataDir: join(dir, 'pgdata') });
  } catch (error) {
    lock.release();
    throw error;
  }
  const db = drizzlePglite(pglite, { schema }) as unknown as Db;
  return {
    db,
    engine: 'pglite',
    pglite,
    close: async () => {
      await pglite.close();
      lock.release();
    },
  };
}

/** Applies the committed migrations; on PostgreSQL under an advisory lock so several nodes may start at once. */
export async function migrateDatabase(database: Database): Promise<void> {
  if (database.engine === 'pglite') {
    await migratePglite(database.db as never, { migrationsFolder });
    return;
  }
  const client = await database.pool!.connect();
  try {
    await client.query('select pg_advisory_lock(727001)');
    await migratePg(drizzlePg(client), { migrationsFolder });
  } finally {
    await client.query('select pg_advisory_unlock(727001)').catch(() => {});
    client.release();
  }
}

/** Runs raw SQL and returns its rows; the same shape on PGlite and node-postgres. */
export async function queryRows<T>(db: DbOrTx, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
