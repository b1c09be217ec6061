import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './client.ts';
import { verifyPassword } from './passwords.ts';
import { businesses, locations, users } from './schema.ts';
import { DEMO_LOGINS, DEMO_PASSWORD, openTestDatabase } from './testing/index.ts';

describe('seeded test database', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());

  it('holds the two demo businesses, with one Harbourside location lacking name and address', async () => {
    const rows = await database.db.select().from(businesses).orderBy(businesses.name);
    expect(rows.map((b) => b.name)).toEqual(['Harbourside Dental', 'Northside Plumbing']);
    const harbourside = rows[0]!;
    const locs = await database.db
      .select()
      .from(locations)
      .where(eq(locations.business_id, harbourside.id))
      .orderBy(locations.precedence);
    expect(locs).toHaveLength(2);
    expect(locs[1]!.name).toBeNull();
    expect(locs[1]!.address).toBeNull();
  });

  it('stores demo passwords as argon2id hashes that verify', async () => {
    const [owner] = await database.db.select().from(users).where(eq(users.email, DEMO_LOGINS.owner));
    expect(owner!.password_hash).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(owner!.password_hash, DEMO_PASSWORD)).toBe(true);
    expect(await verifyPassword(owner!.password_hash, 'wrong')).toBe(false);
  });

  it('refuses a second user with the same email in another case', async () => {
    const [owner] = await database.db.select().from(users).where(eq(users.email, DEMO_LOGINS.owner));
    await expect(
      database.db.insert(users).values({ ...owner!, id: undefined, email: DEMO_LOGINS.owner.toUpperCase() }),
    ).rejects.toThrow();
  });
});
