import { customerCalled, type LocationCounts } from '@switchboard/shared';
import type { InboundMessage, InboundOutcome } from '../../channels/types.ts';
import type { Context } from '../../context.ts';
import { storableText } from '../../lib/text.ts';
import { queueMediaDownload } from '../channels/media.ts';
import { publishCounts } from '../enquiries/counters.ts';
import { addEventNote } from '../notes/service.ts';
import type { InboundWriter } from './pipeline/writer.ts';

export type IngestResult = InboundOutcome & {
  created: boolean;
  counts: LocationCounts | null;
};

type PipelineCtx = Pick<Context, 'db' | 'events' | 'jobs'> & { inboundWriter: InboundWriter };

/**
 * The inbound pipeline (DESIGN §6), the one door for every source: the writer stores the message with its
 * customer, enquiry, opt-out and counters (batched with whatever else arrived meanwhile, in one transaction;
 * a repeated provider id is recognised and stored once), and with the jobs it sets going (its media, the
 * assistant's answer) in the outbox. Then events go out; the caller acknowledges the provider only once this
 * has returned, so nothing acknowledged is lost, nor anything it was to set going.
 */
export async function receiveInbound(ctx: PipelineCtx, received: InboundMessage): Promise<IngestResult> {
  // A customer's text is kept even when it carries characters the database refuses (a NUL, half an emoji).
  const inbound = storableText(received);
  const media = inbound.media ?? [];
  const result = await ctx.inboundWriter.store(inbound);
  // A repeat of a message stored before its media went to the outbox (an older version stopped before
  // queuing it): queued now, under the same job id the outbox would use.
  if (result.duplicate && result.media_waiting && inbound.account_id && media.length)
    await queueMediaDownload(
      ctx.jobs,
      { message_id: result.message.id, account_id: inbound.account_id, media },
      result.business_id,
    );
  if (!result.duplicate) {
    const business_id = result.business_id;
    ctx.events.emit(result.created ? 'enquiry.created' : 'enquiry.updated', {
      business_id,
      enquiry: result.enquiry,
    });
    ctx.events.emit('message.created', {
      business_id,
      location_id: result.enquiry.location_id,
      message: result.message,
    });
    if (result.counts) await publishCounts(ctx, business_id, result.counts);
    if (result.reopened) {
      ctx.events.emit('enquiry.reopened', { business_id, enquiry: result.enquiry, message: result.message });
      // The thread says why a closed conversation is open again, as it does when staff reopen one.
      const who = customerCalled(result.enquiry.customer, 'the customer');
      await addEventNote(ctx, {
        business_id,
        enquiry_id: result.enquiry.id,
        body: `Reopened when ${who} wrote again`,
      });
    }
  }
  return result;
}
