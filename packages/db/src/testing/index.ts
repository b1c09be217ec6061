import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
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
