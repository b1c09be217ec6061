import type { Database } from './client.ts';

/** Autovacuum's own defaults: a table is vacuumed past 50 + 20% dead rows, analysed past 50 + 10% changes. */
const VACUUM_BASE = 50;
const VACUUM_SHARE = 0.2;
const ANALYZE_BASE = 50;
const ANALYZE_SHARE = 0.1;

export type UpkeepDone = { table: string; action: 'vacuum' | 'analyze'; ms: number };

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * The embedded database has no autovacuum: PGlite runs a single backend and no background workers, so its tables
 * would never be vacuumed or analysed, dead rows would pile up and the planner would choose from counts taken when
 * the tables were empty. This does what autovacuum would, table by table, by its default thresholds read from the
 * statistics PGlite does keep. PostgreSQL has its own autovacuum: nothing is done there.
 */
export async function tidyEmbedded(database: Database): Promise<UpkeepDone[]> {
  const pglite = database.pglite;
  if (database.engine !== 'pglite' || !pglite) return [];
  const tables = (
    await pglite.query<{ schema: string; table: string; live: number; dead: number; changed: number }>(
      `select schemaname as schema, relname as "table", n_live_tup::int as live, n_dead_tup::int as dead,
              n_mod_since_analyze::int as changed
       from pg_stat_user_tables order by n_dead_tup + n_mod_since_analyze desc`,
    )
  ).rows;
  const done: UpkeepDone[] = [];
  for (const t of tables) {
    const action =
      t.dead > VACUUM_BASE + VACUUM_SHARE * t.live
        ? 'vacuum'
        : t.changed > ANALYZE_BASE + ANALYZE_SHARE * t.live
          ? 'analyze'
          : null;
    if (!action) continue;
    const name = `${quoted(t.schema)}.${quoted(t.table)}`;
    const started = performance.now();
    await pglite.exec(action === 'vacuum' ? `vacuum (analyze) ${name}` : `analyze ${name}`);
    done.push({ table: `${t.schema}.${t.table}`, action, ms: Math.round(performance.now() - started) });
  }
  return done;
}
