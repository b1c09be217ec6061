import { sql } from 'drizzle-orm';
import type { Db } from './client.ts';
import { hashPassword, newClientKey } from './passwords.ts';
import {
  businessEmails,
  businesses,
  businessMembers,
  businessPhones,
  locations,
  messageTemplates,
  users,
} from './schema.ts';

export const DEMO_PASSWORD = 'demo1234';

export const DEMO_LOGINS = {
  owner: 'owner@harbourside.test',
  staff1: 'staff1@harbourside.test',
  staff2: 'staff2@harbourside.test',
  admin: 'admin@switchboard.test',
  northsideOwner: 'owner@northside.test',
} as const;

const DAY_MS = 86_400_000;

/** True when the database holds no users yet (a first start). */
export async function isEmpty(db: Db): Promise<boolean> {
  const rows = await db.select({ n: sql<number>`count(*)::int` }).from(users);
  return (rows[0]?.n ?? 0) === 0;
}

/**
 * Removes every tenant and user, then writes the demo data: "Harbourside Dental" (two locations, the second
 * without a name or address) and "Northside Plumbing", so tenant isolation can be tried by hand.
 */
export async function seedDemo(db: Db, now = new Date()): Promise<void> {
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  await db.transaction(async (tx) => {
    await tx.execute(sql`truncate table businesses, users cascade`);
    const mkUser = (email: string, full_name: string, super_admin = false) => ({
      email,
      full_name,
      super_admin,
      password_hash: passwordHash,
      ...newClientKey(),
    });
    const [owner, staff1, staff2, admin, northOwner] = await tx
      .insert(users)
      .values([
        mkUser(DEMO_LOGINS.owner, 'Olivia Harbour'),
        mkUser(DEMO_LOGINS.staff1, 'Sam Nguyen'),
        mkUser(DEMO_LOGINS.staff2, 'Priya Shah'),
        mkUser(DEMO_LOGINS.admin, 'Switchboard Admin', true),
        mkUser(DEMO_LOGINS.northsideOwner, 'Noah Northcott'),
      ])
      .returning();
    if (!owner || !staff1 || !staff2 || !admin || !northOwner) throw new Error('seed: users not created');

    const [harbourside, northside] = await tx
      .insert(businesses)
      .values([
        {
          name: 'Harbourside Dental',
          referral_code: 'harbourside-dental',
          owner_user_id: owner.id,
          website: 'https://harbourside.test',
          industry: 'Dental',
          trial_end_date: new Date(now.getTime() + 14 * DAY_MS),
          message_limit: 500,
          verified: true,
          verified_at: now,
          country: 'AU',
        },
        {
          name: 'Northside Plumbing',
          referral_code: 'northside-plumbing',
          owner_user_id: northOwner.id,
          industry: 'Trades',
          plan: 'monthly',
          message_limit: 500,
          verified: true,
          verified_at: now,
          country: 'AU',
        },
      ])
      .returning();
    if (!harbourside || !northside) throw new Error('seed: businesses not created');

    const [docklands] = await tx
      .insert(locations)
      .values([
        {
          business_id: harbourside.id,
          name: 'Harbourside Dental Docklands',
          address: '12 Harbour Esplanade, Docklands VIC 3008',
          precedence: 0,
          phone_number: '+61491570156',
          email_address: 'docklands@harbourside.test',
        },
        // Left without a name and address on purpose: the app shows 'Unknown Location' / 'Unknown Address'.
        { business_id: harbourside.id, precedence: 1, phone_number: '+61491570157' },
        {
          business_id: northside.id,
          name: 'Northside Plumbing Brunswick',
          address: '88 Sydney Road, Brunswick VIC 3056',
          precedence: 0,
          phone_number: '+61491570158',
        },
      ])
      .returning();

    await tx.insert(businessMembers).values([
      { business_id: harbourside.id, user_id: owner.id, role: 'owner' },
      { business_id: harbourside.id, user_id: staff1.id, role: 'staff' },
      { business_id: harbourside.id, user_id: staff2.id, role: 'staff' },
      { business_id: northside.id, user_id: northOwner.id, role: 'owner' },
    ]);

    await tx.insert(businessPhones).values([
      { business_id: harbourside.id, location_id: docklands?.id, label: 'Front desk', phone: '+61491570156' },
      { business_id: northside.id, label: 'Office', phone: '+61491570158' },
    ]);
    await tx.insert(messageTemplates).values([
      {
        business_id: harbourside.id,
        name: 'Booking confirmed',
        body: 'Hi {first_name}, your appointment at {location_name} is confirmed. Reply here if anything changes.',
      },
      {
        business_id: harbourside.id,
        name: 'We will call you back',
        body: 'Thanks {first_name}! Someone from {business_name} will call you back on {business_day}.',
      },
      {
        business_id: northside.id,
        name: 'On our way',
        body: 'Hi {first_name}, a plumber from {business_name} is on the way.',
      },
    ]);
    await tx.insert(businessEmails).values([
      {
        business_id: harbourside.id,
        location_id: docklands?.id,
        label: 'Reception',
        email: 'hello@harbourside.test',
      },
      { business_id: northside.id, label: 'Office', email: 'office@northside.test' },
    ]);
  });
}
