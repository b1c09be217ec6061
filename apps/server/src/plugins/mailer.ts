import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import nodemailer from 'nodemailer';

/** An email from the product to one of its own users (not to a customer): sign-in help, verification. */
export type SystemMail = { to: string; subject: string; text: string };

export type Mailer = {
  /** Queues the email; a job sends it, retrying while the relay is unreachable. */
  queue(mail: SystemMail): Promise<void>;
};

declare module 'fastify' {
  interface FastifyInstance {
    mailer: Mailer;
  }
}

export const SYSTEM_MAIL_QUEUE = 'mail.system';
const RETRIES = { retryLimit: 5, retryDelay: 30, retryBackoff: true } as const;

/**
 * Email to the product's users goes through the SMTP relay at SMTP_URL. Without one (the one-command
 * install), it is written to the server log instead, so whoever runs the server can still follow a link.
 */
export const mailerPlugin = fp(async (app: FastifyInstance) => {
  const { smtpUrl, mailFrom } = app.config.email;
  const transport = smtpUrl
    ? nodemailer.createTransport({ url: smtpUrl, connectionTimeout: 15_000, socketTimeout: 60_000 })
    : null;

  await app.jobs.work<SystemMail>(SYSTEM_MAIL_QUEUE, async (job) => {
    const mail = job.data;
    if (!transport) {
      app.log.info({ to: mail.to, subject: mail.subject }, `Email not sent (no SMTP_URL):\n${mail.text}`);
      return;
    }
    await transport.sendMail({ from: mailFrom, to: mail.to, subject: mail.subject, text: mail.text });
  });

  app.decorate('mailer', {
    async queue(mail) {
      await app.jobs.send(SYSTEM_MAIL_QUEUE, mail, RETRIES);
    },
  } satisfies Mailer);
  app.addHook('onClose', async () => transport?.close());
});
