import { enquiries } from '@switchboard/db';
import { isPhoneNumberChannel, PHONE_NUMBER_CHANNELS } from '@switchboard/shared';
import { eq, inArray, or, type SQL, sql } from 'drizzle-orm';

/**
 * The enquiries a message on `channel` continues, as a condition: the same channel, or for texts and calls the
 * phone number's conversation (any of them, and a website chat whose reply went by SMS). The inbound pipeline
 * applies the same rule (`pipeline/store.ts`, and `store_inbound_batch`).
 */
export function continuesThreadOf(channel: string): SQL {
  if (!isPhoneNumberChannel(channel)) return eq(enquiries.channel, channel);
  return or(
    inArray(enquiries.channel, [...PHONE_NUMBER_CHANNELS]),
    sql`${enquiries.channel} = 'widget' and ${enquiries.meta} ? 'sms_fallback_at'`,
  )!;
}
