import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import nodemailer from 'nodemailer';
import { newMessageId } from '../channels/email/message-id.ts';
import { type SystemMail, systemMail } from '../jobs/definitions/system-mail.ts';

export type Mailer = {
  /** Queues the email; a job sends it, retrying while the relay is unreachable. */
  queue(mail: SystemMail): Promise<void>;
  /** Sends it now (the job's work): through the relay, or into the log without one. */
  deliver(mail: SystemMail): Promise<void>;
};

declare module 'fastify' {
  interface FastifyInstance {
    mailer: Mailer;
  }
}

/**
 * Email to the product's users goes through the SMTP relay at SMTP_URL. Without one (the one-command
 * install), it is written to the server log instead, so whoever runs the server can still follow a link.
 */
export const mailerPlugin = fp(async (app: FastifyInstance) => {
  const { smtpUrl, mailFrom } = app.config.email;
  const transport = smtpUrl
    ? nodemailer.createTransport({ url: smtpUrl, connectionTimeout: 15_000, socketTimeout: 60_000 })
    : null;

  app.decorate('mailer', {
    async queue(mail) {
      await app.jobs.send(systemMail, mail);
    },
    async deliver(mail) {
      if (!transport) {
        app.log.info({ to: mail.to, subject: mail.subject }, `Email not sent (no SMTP_URL):\n${mail.text}`);
        return;
      }
      await transport.sendMail({
        from: mailFrom,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        // Ours, so that this mail forwarded to a location's inbound address is recognised and dropped; and
        // automatic, so that autoresponders leave it be.
        messageId: `<${newMessageId(app.config.email.inboundDomain)}>`,
        headers: { 'Auto-Submitted': 'auto-generated', 'X-Auto-Response-Suppress': 'All' },
      });
    },
  } satisfies Mailer);
  app.addHook('onClose', async () => transport?.close());
});
