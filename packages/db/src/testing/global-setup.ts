import { existsSync, writeFileSync } from 'node:fs';
import pg from 'pg';
import { createPglite, migrateDatabase, openDatabase } from '../client.ts';
import { installJobSchema } from '../jobs.ts';
import { seedDemo } from '../seed.ts';
import { pgliteTemplatePath, TEMPLATE_DB_NAME, withDatabase } from './template.ts';

/**
 * Builds, once per test run, a migrated and seeded database that every suite copies: a dumped PGlite data
 * dir (cached across runs until the migrations or seed change), or a template database on PostgreSQL
 * when TEST_DATABASE_URL names a server.
 */
export default async function setup(): Promise<void> {
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    await buildPostgresTemplate(url);
    return;
  }
  const path = pgliteTemplatePath();
  if (existsSync(path)) return;
  const pglite = await createPglite();
  const database = await openDatabase({ pglite });
  await migrateDatabase(database);
  await seedDemo(database.db);
  await installJobSchema(database);
  const dump = await pglite.dumpDataDir('none');
  writeFileSync(path, Buffer.from(await dump.arrayBuffer()));
  await pglite.close();
}

async function buildPostgresTemplate(url: string): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${TEMPLATE_DB_NAME} with (force)`);
    await admin.query(`create database ${TEMPLATE_DB_NAME}`);
  } finally {
    await admin.end();
  }
  const database = await openDatabase({ databaseUrl: withDatabase(url, TEMPLATE_DB_NAME), poolSize: 2 });
  try {
    await migrateDatabase(database);
    await seedDemo(database.db);
    await installJobSchema(database);
  } finally {
    await database.close();
  }
}
