import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, migrationsFolder, queryRows } from './client.ts';
import { openTestDatabase } from './testing/index.ts';

/** The statements of migration 0010 that merge customers created twice (before the unique keys existed). */
const mergeStatements = readFileSync(`${migrationsFolder}/0010_unique_customers.sql`, 'utf8')
  .split('--> statement-breakpoint')
  .map((s) => s.trim())
  .filter(
    (s) => s.includes('WITH m AS') || s.startsWith('-- The channel id') || s.includes('"external_key" = '),
  );

describe('migration 0010: one customer per business and contact', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());

  it('merges duplicates into the oldest, which keeps every conversation and message', async () => {
    const db = database.db;
    await db.execute(sql`drop index customers_business_phone_key`);
    await db.execute(sql`drop index customers_business_external_key`);
    const [b] = await queryRows<{ id: string; location: string }>(
      db,
      sql`select b.id, l.id as location from businesses b join locations l on l.business_id = b.id limit 1`,
    );
    const add = async (at: string, phone: string | null, external: Record<string, string>) => {
      const [c] = await queryRows<{ id: string }>(
        db,
        sql`insert into customers (id, business_id, phone, external_ids, created_at)
            values (gen_random_uuid(), ${b!.id}, ${phone}, ${JSON.stringify(external)}::jsonb, ${at}::timestamptz) returning id`,
      );
      const [e] = await queryRows<{ id: string }>(
        db,
        sql`insert into enquiries (id, business_id, location_id, customer_id, channel)
            values (gen_random_uuid(), ${b!.id}, ${b!.location}, ${c!.id}, 'sms') returning id`,
      );
      await db.execute(
        sql`insert into messages (id, business_id, enquiry_id, customer_id, channel, direction, message, status)
            values (gen_random_uuid(), ${b!.id}, ${e!.id}, ${c!.id}, 'sms', 'in', 'hi', 'received')`,
      );
      return c!.id;
    };
    const oldest = await add('2026-01-01', '+15557770001', {});
    await add('2026-01-02', '+15557770001', {});
    await add('2026-01-03', '+15557770001', {});
    const psid = await add('2026-01-01', null, { facebook: 'psid-1' });
    await add('2026-01-05', null, { facebook: 'psid-1' });

    for (const statement of mergeStatements) await db.execute(sql.raw(statement));

    const left = await queryRows<{ id: string; external_key: string | null }>(
      db,
      sql`select id, external_key from customers where phone = '+15557770001' or external_ids ? 'facebook'`,
    );
    expect(left.map((c) => c.id).sort()).toEqual([oldest, psid].sort());
    expect(left.find((c) => c.id === psid)?.external_key).toBe('facebook:psid-1');
    const [counts] = await queryRows<{ enquiries: number; messages: number }>(
      db,
      sql`select (select count(*)::int from enquiries where customer_id = ${oldest}) as enquiries,
                 (select count(*)::int from messages where customer_id = ${oldest}) as messages`,
    );
    expect(counts).toEqual({ enquiries: 3, messages: 3 });
  });
});
