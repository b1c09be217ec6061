import { customers } from '@switchboard/db';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ChannelAdapter } from '../../channels/types.ts';
import { PermanentSendError } from '../../lib/provider-errors.ts';

export const CALL_CHANNEL = 'phone_call';

/**
 * A conversation that began with a phone call is answered by text message: a reply goes by SMS to the caller's
 * number through the location's SMS channel, and their texts back join the same conversation (texts and
 * calls from one number are one conversation).
 */
export function registerCallReplies(app: FastifyInstance): void {
  const smsOf = async (locationId: string) => {
    try {
      return await app.channels.forChannel('sms', locationId);
    } catch (error) {
      if (error instanceof PermanentSendError) return null;
      throw error;
    }
  };

  const adapter = (sms: ChannelAdapter): ChannelAdapter => ({
    provider: sms.provider,
    key: sms.key,
    async send(message) {
      if (!message.to.phone) throw new PermanentSendError('The caller has no phone number to text.');
      const [c] = message.customer_id
        ? await app.db
            .select({ opted_out: customers.sms_opted_out })
            .from(customers)
            .where(eq(customers.id, message.customer_id))
        : [];
      if (c?.opted_out)
        throw new PermanentSendError('The caller has opted out of texts (they replied STOP).');
      const result = await sms.send({ ...message, channel: 'sms' });
      return { ...result, meta: { ...result.meta, delivered_via: 'sms', sms_to: message.to.phone } };
    },
    ...(sms.reconcile
      ? { reconcile: (message, since) => sms.reconcile!({ ...message, channel: 'sms' }, since) }
      : {}),
  });

  app.channels.register(async ({ channel, location_id }) => {
    if (channel !== CALL_CHANNEL) return null;
    const sms = await smsOf(location_id);
    if (!sms) throw new PermanentSendError('This location has no SMS channel to text the caller back on.');
    return adapter(sms);
  });

  app.channels.describeReplies(CALL_CHANNEL, async (enquiry) => {
    const [c] = await app.db.select().from(customers).where(eq(customers.id, enquiry.customer_id));
    if (!(await smsOf(enquiry.location_id)))
      return {
        route: 'channel',
        detail: 'This location has no SMS channel: connect one under Channels & forms to text callers back.',
      };
    if (!c?.phone) return { route: 'channel', detail: 'The caller has no phone number to text.' };
    return { route: 'sms', detail: `A reply to a call goes by SMS to ${c.phone}.` };
  });
}
