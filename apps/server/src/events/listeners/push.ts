import { queryRows } from '@switchboard/db';
import { customerCalled, type PushPayload } from '@switchboard/shared';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { pushNotify } from '../../jobs/definitions/push-notify.ts';
import { preview } from '../../modules/messages/dto.ts';
import { pushRecipients } from '../../modules/notifications/push.ts';

/** How long an enquiry counts as just opened: its first message is pushed as a new enquiry, not a message. */
const FIRST_MESSAGE_MS = 10_000;

/**
 * A customer's new enquiry or message is pushed to the browsers of the people at its location who would not
 * see it otherwise (spec: push per user). Who is decided here, after the webhook has answered; each person's
 * push is a job, so a slow push service delays nobody.
 */
export function pushListeners(app: FastifyInstance): void {
  const opened = new Map<string, string>();
  app.events.on('enquiry.created', ({ enquiry }) => {
    const who = customerCalled(enquiry.customer, 'A customer');
    opened.set(enquiry.id, who);
    setTimeout(() => opened.delete(enquiry.id), FIRST_MESSAGE_MS).unref();
  });
  app.events.on('message.created', ({ business_id, location_id, message }) => {
    // An out-of-office reply or list mail waits in the thread; it buzzes nobody's phone.
    if (message.direction !== 'in' || message.meta.auto_submitted === true) return;
    const first = opened.get(message.enquiry_id);
    opened.delete(message.enquiry_id);
    const kind: PushPayload['kind'] = first ? 'enquiry' : 'message';
    const text = preview(message.message, message.attachments.length);
    void (async () => {
      const users = await pushRecipients(app, { business_id, location_id, kind });
      if (users.length === 0) return;
      const who = first ?? (await customerName(app, message.enquiry_id));
      const payload: PushPayload = {
        kind,
        title: kind === 'enquiry' ? `New enquiry from ${who}` : `${who} wrote`,
        body: text,
        url: `/inbox/${message.enquiry_id}`,
        tag: `enquiry:${message.enquiry_id}`,
      };
      for (const user_id of users) await app.jobs.send(pushNotify, { user_id, payload });
    })().catch((err: unknown) => app.log.warn({ err }, 'queuing push notifications failed'));
  });
}

async function customerName(app: FastifyInstance, enquiryId: string): Promise<string> {
  const [row] = await queryRows<{ name: string | null; phone: string | null; email: string | null }>(
    app.db,
    sql`select c.name, c.phone, c.email from enquiries e join customers c on c.id = e.customer_id
        where e.id = ${enquiryId}::uuid`,
  );
  return customerCalled(row, 'A customer');
}
