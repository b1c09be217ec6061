import { customers, type DbOrTx, messages } from '@switchboard/db';
import { normalisePhone } from '@switchboard/shared';
import { and, eq, sql } from 'drizzle-orm';
import { AppError } from '../../errors.ts';

/**
 * Customers: one per business and contact. Found by the channel's own id (Messenger, Instagram, the widget),
 * else by phone, else by email; named once a name is known; opted out of texts by STOP.
 */

/** The phone number in E.164, or a 422 that says it is not one. */
export function phoneOrRefuse(raw: string): string {
  const phone = normalisePhone(raw);
  if (!phone) throw new AppError('unprocessable', `${raw} is not a valid phone number.`);
  return phone;
}

type ContactInput = { phone?: string; email?: string; name?: string; external_id?: string; channel?: string };

/** The business's customer with this external id, phone or email; created when none matches. */
export async function findOrCreateCustomer(tx: DbOrTx, businessId: string, contact: ContactInput) {
  const match =
    contact.external_id && contact.channel
      ? sql`${customers.external_ids} ->> ${contact.channel} = ${contact.external_id}`
      : contact.phone
        ? eq(customers.phone, contact.phone)
        : contact.email
          ? sql`lower(${customers.email}) = lower(${contact.email})`
          : undefined;
  if (match) {
    const [existing] = await tx
      .select()
      .from(customers)
      .where(and(eq(customers.business_id, businessId), match))
      .orderBy(customers.created_at)
      .limit(1);
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
  }
  const [created] = await tx
    .insert(customers)
    .values({
      business_id: businessId,
      name: contact.name ?? null,
      first_name: contact.name?.split(/\s+/)[0] ?? null,
      phone: contact.phone ?? null,
      email: contact.email ?? null,
      external_ids: contact.external_id && contact.channel ? { [contact.channel]: contact.external_id } : {},
    })
    .returning();
  return created!;
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
