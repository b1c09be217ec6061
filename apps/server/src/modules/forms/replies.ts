import { customers } from '@switchboard/db';
import { isValidEmail } from '@switchboard/shared';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ChannelAdapter } from '../../channels/types.ts';
import { PermanentSendError } from '../../lib/provider-errors.ts';

/** The channels of enquiries left on a form: the website's own form and the hosted contact page. */
export const FORM_CHANNELS: ReadonlySet<string> = new Set(['web_form', 'contact_form']);

const NO_EMAIL = 'Email is not set up on this server, so a form cannot be answered by email yet.';

/**
 * A form is answered by email, to the address the person left on it: a reply goes out through the server's
 * email channel (threaded, with a reply address that brings their answer back to this enquiry).
 */
export function registerFormReplies(app: FastifyInstance): void {
  const emailOf = async (locationId: string) => {
    try {
      return await app.channels.forChannel('email', locationId);
    } catch (error) {
      if (error instanceof PermanentSendError) return null;
      throw error;
    }
  };

  const adapter = (email: ChannelAdapter): ChannelAdapter => ({
    provider: email.provider,
    key: email.key,
    async send(message) {
      if (!message.to.email || !isValidEmail(message.to.email))
        throw new PermanentSendError('This person left no email address on the form to answer.');
      // A form without a subject line still gets one the person recognises in their mailbox.
      const subject = message.subject?.trim() || `Your enquiry to ${message.from.location_name ?? 'us'}`;
      const result = await email.send({ ...message, channel: 'email', subject });
      return { ...result, meta: { ...result.meta, delivered_via: 'email', email_to: message.to.email } };
    },
    ...(email.reconcile
      ? { reconcile: (message, since) => email.reconcile!({ ...message, channel: 'email' }, since) }
      : {}),
  });

  app.channels.register(async ({ channel, location_id }) => {
    if (!FORM_CHANNELS.has(channel)) return null;
    const email = await emailOf(location_id);
    if (!email) throw new PermanentSendError(NO_EMAIL);
    return adapter(email);
  });

  for (const channel of FORM_CHANNELS) {
    app.channels.describeReplies(channel, async (enquiry) => {
      const [c] = await app.db
        .select({ email: customers.email, phone: customers.phone })
        .from(customers)
        .where(eq(customers.id, enquiry.customer_id));
      if (!(await emailOf(enquiry.location_id))) return { route: 'channel', detail: NO_EMAIL };
      if (!c?.email || !isValidEmail(c.email))
        return {
          route: 'channel',
          detail: c?.phone
            ? `This person left no email address on the form: call or text them at ${c.phone}.`
            : 'This person left no email address on the form to answer.',
        };
      return { route: 'channel', detail: `A reply to a form goes by email to ${c.email}.` };
    });
  }
}
