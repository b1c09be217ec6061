import { customers, type DbOrTx, enquiries } from '@switchboard/db';
import { identityOf, isValidEmail, type SandboxChannel } from '@switchboard/shared';
import { and, desc, eq, sql } from 'drizzle-orm';
import { AppError } from '../../errors.ts';
import { externalKey, phoneOrRefuse } from '../customers/service.ts';
import { continuesThreadOf } from '../messages/threads.ts';

/** How the customer the simulator plays is matched, read as the inbound door reads it. */
function customerMatch(channel: SandboxChannel, identity: string) {
  switch (identityOf(channel)) {
    case 'email':
      if (!isValidEmail(identity))
        throw new AppError('unprocessable', 'Give the customer a valid email address.');
      return sql`lower(${customers.email}) = ${identity.toLowerCase()}`;
    case 'external_id':
      return eq(customers.external_key, externalKey(channel, identity));
    case 'phone':
      return eq(customers.phone, phoneOrRefuse(identity));
  }
}

/**
 * The enquiry a simulated customer's next message on `channel` would join at the location (their open one in
 * that thread, a phone number's texts and calls being one), else their latest there; null when they have none.
 */
export async function findSandboxConversation(
  db: DbOrTx,
  input: { business_id: string; location_id: string; channel: SandboxChannel; identity: string },
): Promise<string | null> {
  const [row] = await db
    .select({ id: enquiries.id })
    .from(enquiries)
    .innerJoin(customers, eq(customers.id, enquiries.customer_id))
    .where(
      and(
        eq(customers.business_id, input.business_id),
        customerMatch(input.channel, input.identity),
        eq(enquiries.business_id, input.business_id),
        eq(enquiries.location_id, input.location_id),
        continuesThreadOf(input.channel),
      ),
    )
    .orderBy(sql`${enquiries.status} = 'open' desc`, desc(enquiries.last_message_at))
    .limit(1);
  return row?.id ?? null;
}
