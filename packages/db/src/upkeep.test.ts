import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './client.ts';
import { queryRows } from './client.ts';
import { openTestDatabase } from './testing/index.ts';
import { tidyEmbedded } from './upkeep.ts';

describe('upkeep of the embedded database', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());

  const statsOf = async (table: string) => {
    // PGlite publishes its counters after a short delay; this asks for them now.
    await database.db.execute(sql`select pg_stat_force_next_flush()`);
    const [row] = await queryRows<{
      dead: number;
      changed: number;
      vacuumed: Date | null;
      analysed: Date | null;
    }>(
      database.db,
      sql`select n_dead_tup::int as dead, n_mod_since_analyze::int as changed, last_vacuum as vacuumed,
                 last_analyze as analysed
          from pg_stat_user_tables where schemaname = 'public' and relname = ${table}`,
    );
    return row!;
  };

  it('vacuums a table full of dead rows and analyses one much changed, as autovacuum would, then rests', async () => {
    if (database.engine === 'postgres') {
      // PostgreSQL's own autovacuum does this; nothing is done there.
      expect(await tidyEmbedded(database)).toEqual([]);
      return;
    }
    const [business] = await queryRows<{ id: string }>(database.db, sql`select id from businesses limit 1`);
    await database.db.execute(sql`
      insert into customers (id, business_id, name, phone)
      select gen_random_uuid(), ${business!.id}::uuid, 'Upkeep ' || g, '+614915' || lpad(g::text, 5, '0')
      from generate_series(1, 3000) g`);
    // Every row rewritten: as many dead rows as live ones.
    await database.db.execute(sql`update customers set name = name || '.' where name like 'Upkeep %'`);
    await database.db.execute(sql`insert into audit_log (id, business_id, action)
      select gen_random_uuid(), ${business!.id}::uuid, 'upkeep.test' from generate_series(1, 500)`);
    const before = await statsOf('customers');
    expect(before.dead).toBeGreaterThanOrEqual(3000);

    const done = await tidyEmbedded(database);
    expect(done).toContainEqual(expect.objectContaining({ table: 'public.customers', action: 'vacuum' }));
    expect(done).toContainEqual(expect.objectContaining({ table: 'public.audit_log', action: 'analyze' }));
    const after = await statsOf('customers');
    expect(after.dead).toBe(0);
    expect(after.vacuumed).not.toBeNull();
    expect((await statsOf('audit_log')).analysed).not.toBeNull();
    // Nothing has changed since: nothing more to do for them.
    const again = await tidyEmbedded(database);
    expect(again.map((d) => d.table)).not.toContain('public.customers');
    expect(again.map((d) => d.table)).not.toContain('public.audit_log');
  });
});
