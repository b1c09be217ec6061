import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { type Database, migrateDatabase, openDatabase, seedDemo } from '@switchboard/db';
import pg from 'pg';
import { TMP_DIR } from '../generate.ts';
import type { BenchContext, Engine } from './context.ts';

/**
 * A fresh, migrated database with the demo businesses for one section: a new database `name` on the
 * benchmark's PostgreSQL, or a new PGlite data directory (removed when the run ends), opened as the server
 * opens it.
 */
export async function openSectionDatabase(
  ctx: BenchContext,
  engine: Engine,
  name: string,
): Promise<Database> {
  let database: Database;
  if (engine === 'postgres') {
    const server = await ctx.postgres();
    const admin = new pg.Client({ connectionString: server.adminUrl });
    await admin.connect();
    try {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.query(`create database ${name}`);
    } finally {
      await admin.end();
    }
    const url = new URL(server.adminUrl);
    url.pathname = `/${name}`;
    database = await openDatabase({ databaseUrl: url.toString() });
  } else {
    const dir = join(TMP_DIR, `bench-${name}-pglite`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    database = await openDatabase({ dataDir: dir });
    ctx.defer(() => rmSync(dir, { recursive: true, force: true }));
  }
  await migrateDatabase(database);
  await seedDemo(database.db);
  return database;
}
