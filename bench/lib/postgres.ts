import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import pg from 'pg';
import { REPO_ROOT } from '../generate.ts';

/**
 * The benchmark's own PostgreSQL server (scripts/pg.sh on a separate port and directory, durable settings:
 * fsync and synchronous_commit on). Never the test suite's server on the default port.
 */
export const BENCH_PG_PORT = Number(process.env.BENCH_PG_PORT ?? 55440);
const env = () => ({
  ...process.env,
  PG_TEST_PORT: String(BENCH_PG_PORT),
  PG_TEST_DIR: `/tmp/switchboard-bench-pg-${BENCH_PG_PORT}`,
  PG_FSYNC: 'on',
  PG_SYNC_COMMIT: 'on',
});
const script = join(REPO_ROOT, 'scripts/pg.sh');

export type PostgresServer = { adminUrl: string; settings: Record<string, string>; stop(): void };

export async function startPostgres(): Promise<PostgresServer> {
  if (BENCH_PG_PORT === 55432)
    throw new Error('BENCH_PG_PORT 55432 is the test suite’s server; pick another port');
  // A server left running by an interrupted run may have other settings: start from scratch.
  execFileSync('bash', [script, 'stop'], { env: env(), stdio: ['ignore', 'ignore', 'inherit'] });
  const out = execFileSync('bash', [script, 'start'], {
    env: env(),
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const adminUrl = out.trim().split('\n').pop() ?? '';
  if (!adminUrl.startsWith('postgres://') || !new URL(adminUrl).hostname.startsWith('127.')) {
    throw new Error(`scripts/pg.sh start printed no loopback URL: ${out}`);
  }
  const settings: Record<string, string> = {};
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string; setting: string; unit: string | null }>(
      `select name, setting, unit from pg_settings
        where name in ('server_version', 'fsync', 'synchronous_commit', 'shared_buffers', 'work_mem', 'listen_addresses')`,
    );
    for (const r of rows)
      settings[r.name] =
        r.unit === '8kB' ? `${(Number(r.setting) * 8) / 1024}MB` : `${r.setting}${r.unit ?? ''}`;
  } finally {
    await client.end();
  }
  return { adminUrl, settings, stop: stopPostgres };
}

export function stopPostgres(): void {
  execFileSync('bash', [script, 'stop'], { env: env(), stdio: ['ignore', 'ignore', 'inherit'] });
}
