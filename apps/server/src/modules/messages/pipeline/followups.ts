import type { InboundMessage } from '../../../channels/types.ts';
import { aiAutoReply } from '../../../jobs/definitions/ai.ts';
import { inboundMedia } from '../../../jobs/definitions/inbound-media.ts';
import type { Jobs, OutboxEntry } from '../../../plugins/jobs.ts';

/** Phone calls are messages of their own channel: the missed-call text answers them, not the assistant. */
const CALL_CHANNEL = 'phone_call';

/** How many seconds the assistant waits after a customer's line at a location; null where it is off. */
export type AutoReplyDelay = (locationId: string) => Promise<number | null>;

/** The jobs one stored message sets going, given its id and its business. */
export type FollowupsOf = (m: InboundMessage, messageId: string, businessId: string) => OutboxEntry[];

/**
 * What an inbound message sets going once it is stored: the download of its media, and the assistant's turn
 * where the location has it on. They are written to the outbox in the batch's own statement, so a server that
 * stops right after the commit loses neither; each job's id is the message's, so nothing runs twice.
 * The locations' settings are read once per batch (kept for a few seconds by the assistant's module).
 */
export async function followupsFor(
  jobs: Pick<Jobs, 'entry'>,
  batch: InboundMessage[],
  autoReplyDelay: AutoReplyDelay,
): Promise<FollowupsOf> {
  const locations = [...new Set(batch.map((m) => m.location_id))];
  const delays = new Map(
    await Promise.all(locations.map(async (id) => [id, await autoReplyDelay(id)] as const)),
  );
  return (m, messageId, businessId) => {
    const entries: OutboxEntry[] = [];
    const media = m.media ?? [];
    if (m.account_id && media.length)
      entries.push(
        jobs.entry(
          inboundMedia,
          { message_id: messageId, account_id: m.account_id, media },
          // Downloads are grouped by business: one business's slow media never holds up another's.
          { id: messageId, singletonKey: messageId, group: { id: businessId } },
        ),
      );
    const delay = delays.get(m.location_id);
    if (delay != null && m.channel !== CALL_CHANNEL && !m.automatic && m.message.trim())
      entries.push(
        jobs.entry(
          aiAutoReply,
          { message_id: messageId },
          { id: messageId, startAfter: new Date(Date.now() + delay * 1000) },
        ),
      );
    return entries;
  };
}
