import { customers, type DbOrTx, messages } from '@switchboard/db';
import { normalisePhone } from '@switchboard/shared';
import { and, eq, sql } from 'drizzle-orm';
import { fieldError } from '../../errors.ts';

/**
 * Customers: one per business and contact. Found by the channel's own id (Messenger, Instagram, the widget),
 * else by phone, else by email; named once a name is known; opted out of texts by STOP.
 */

/** The phone number in E.164, or a 422 that says it is not one, naming the field it came in. */
export function phoneOrRefuse(raw: string, field = 'phone'): string {
  const phone = normalisePhone(raw);
  if (!phone) throw fieldError('unprocessable', field, `${raw} is not a valid phone number.`);
  return phone;
}

type ContactInput = { phone?: string; email?: string; name?: string; external_id?: string; channel?: string };

/** The key a customer first known on a channel is unique by: `facebook:PSID`. */
export const externalKey = (channel: string, id: string) => `${channel}:${id}`;

/**
 * The business's customer with this external id, phone or email; created when none matches. Creation is
 * decided by the unique keys (one customer per business and phone, email without a phone, or channel id), so
 * concurrent first messages from one sender find one customer: the loser of the race reads the winner's.
 */
export async function findOrCreateCustomer(tx: DbOrTx, businessId: string, contact: ContactInput) {
  const match =
    contact.external_id && contact.channel
      ? eq(customers.external_key, externalKey(contact.channel, contact.external_id))
      : contact.phone
        ? eq(customers.phone, contact.phone)
        : contact.email
          ? sql`lower(${customers.email}) = lower(${contact.email})`
          : undefined;
  const find = async () => {
    if (!match) return undefined;
    const [existing] = await tx
      .select()
      .from(customers)
      .where(and(eq(customers.business_id, businessId), match))
      .orderBy(customers.created_at)
      .limit(1);
    return existing;
  };
  const existing = await find();
  if (existing) {
    if (contact.name && !existing.name) {
      const [named] = await tx
        .update(customers)
        .set({ name: contact.name, first_name: contact.name.split(/\s+/)[0] })
        .where(eq(customers.id, existing.id))
        .returning();
      return named!;
    }
    return existing;
  }
  const external = contact.external_id && contact.channel;
  const [created] = await tx
    .insert(customers)
    .values({
      business_id: businessId,
      name: contact.name ?? null,
      first_name: contact.name?.split(/\s+/)[0] ?? null,
      phone: contact.phone ?? null,
      email: contact.email ?? null,
      external_ids: external ? { [contact.channel!]: contact.external_id! } : {},
      external_key: external ? externalKey(contact.channel!, contact.external_id!) : null,
    })
    .onConflictDoNothing()
    .returning();
  if (created) return created;
  const winner = await find();
  if (!winner) throw new Error('findOrCreateCustomer: a conflicting customer was not found');
  return winner;
}

/** The customer who sent (or was sent) a provider's message. */
export async function customerOfMessage(db: DbOrTx, provider: string, providerMessageId: string) {
  const [row] = await db
    .select({ id: messages.customer_id })
    .from(messages)
    .where(and(eq(messages.provider, provider), eq(messages.provider_message_id, providerMessageId)));
  return row?.id;
}

export async function setSmsOptOut(db: DbOrTx, customerId: string, optedOut: boolean): Promise<void> {
  await db.update(customers).set({ sms_opted_out: optedOut }).where(eq(customers.id, customerId));
}
