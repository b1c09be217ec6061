import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { migrationsFolder } from '../client.ts';

export const TEMPLATE_DB_NAME = 'switchboard_template';

/** Where the dumped PGlite template lives; named by a hash of the migrations and seed so a change rebuilds it. */
export function pgliteTemplatePath(): string {
  const hash = createHash('sha256');
  for (const file of readdirSync(migrationsFolder).sort()) {
    if (file.endsWith('.sql')) hash.update(readFileSync(join(migrationsFolder, file)));
  }
  hash.update(readFileSync(new URL('../seed.ts', import.meta.url)));
  hash.update(readFileSync(new URL('../jobs.ts', import.meta.url)));
  const dir = resolve(migrationsFolder, '../../../.tmp');
  if (!existsSync(dir)) mkdirSync(dir, { recursive: true });
  return join(dir, `pglite-template-${hash.digest('hex').slice(0, 16)}.tar`);
}

/** Replaces the database name in a PostgreSQL URL. */
export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}
