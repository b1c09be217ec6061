import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { createPglite, type Database, openDatabase } from '../client.ts';
import { pgliteTemplatePath, TEMPLATE_DB_NAME, withDatabase } from './template.ts';

export { DEMO_LOGINS, DEMO_PASSWORD } from '../seed.ts';

/**
 * A fresh copy of the migrated, seeded template for one test suite: PGlite restored from the dump (~1 s),
 * or, with TEST_DATABASE_URL, a PostgreSQL database created from the template and dropped on close.
 */
export async function openTestDatabase(): Promise<Database> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    const dump = new Blob([readFileSync(pgliteTemplatePath())]);
    const pglite = await createPglite({ loadDataDir: dump });
    return openDatabase({ pglite });
  }
  const name = `test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name} template ${TEMPLATE_DB_NAME}`);
  await admin.end();
  const database = await openDatabase({ databaseUrl: withDatabase(url, name), poolSize: 10 });
  return {
    ...database,
    close: async () => {
      await database.close();
      const dropper = new pg.Client({ connectionString: url });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}

/**
 * A copy of the seeded template for a server started as its own process: a PGlite data directory in `dir`, or,
 * with TEST_DATABASE_URL, a new PostgreSQL database. `env` is what the server needs to find it; `open` opens it
 * here (for PGlite, only while no server holds the directory).
 */
export async function createServerDatabase(dir: string): Promise<{
  env: Record<string, string>;
  open(): Promise<Database>;
  drop(): Promise<void>;
}> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    mkdirSync(dir, { recursive: true });
    const dump = new Blob([readFileSync(pgliteTemplatePath())]);
    const pglite = await createPglite({ dataDir: join(dir, 'pgdata'), loadDataDir: dump });
    await pglite.close();
    return { env: { DATA_DIR: dir }, open: () => openDatabase({ dataDir: dir }), drop: async () => {} };
  }
  const name = `server_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name} template ${TEMPLATE_DB_NAME}`);
  await admin.end();
  const databaseUrl = withDatabase(url, name);
  return {
    env: { DATA_DIR: dir, DATABASE_URL: databaseUrl },
    open: () => openDatabase({ databaseUrl, poolSize: 4 }),
    drop: async () => {
      const dropper = new pg.Client({ connectionString: url });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}
