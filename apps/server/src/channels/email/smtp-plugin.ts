import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { SMTPServer, type SMTPServerDataStream } from 'smtp-server';
import { type EmailDeps, locationOfRecipient, receiveEmail, SmtpReply } from './inbound.ts';
import { createEmailAdapter } from './outbound.ts';

/** Recipients one SMTP transaction may name; more are deferred (452) to a later transaction. */
const MAX_RECIPIENTS = 20;

export type InboundSmtp = {
  /** The port the inbound SMTP server listens on; 0 until it listens (or when SMTP_ENABLED is false). */
  readonly port: number;
  /** Starts listening (once); called when the app listens. Resolves to the bound port. */
  start(): Promise<number>;
};

declare module 'fastify' {
  interface FastifyInstance {
    smtp: InboundSmtp;
  }
}

const reply = (code: number, message: string) => new SmtpReply(code, message);

/**
 * The email channel: the inbound SMTP server (each location's address; the message is stored before the
 * client hears 250), the outbound adapter over SMTP_URL, and GET /api/v1/email/inbound-address.
 *
 * The SMTP server starts listening when the app does (onListen), like the HTTP server: building the app for
 * a test opens no port. A failure to listen is logged, not fatal, since Fastify ignores onListen errors.
 */
export const emailChannel = fp(
  async (app: FastifyInstance) => {
    const { config } = app;
    const deps: EmailDeps = { db: app.db, events: app.events, config, inbound: app.inbound };

    const server = config.email.smtpEnabled ? createInboundServer(app, deps) : null;
    let port = 0;
    let starting: Promise<number> | null = null;
    const start = () => {
      if (!server) return Promise.resolve(0);
      starting ??= new Promise<number>((resolve, reject) => {
        const onError = (error: Error) => reject(error);
        server.server.once('error', onError);
        server.listen(config.email.smtpPort, config.email.smtpHost, () => {
          server.server.off('error', onError);
          port = (server.server.address() as AddressInfo).port;
          app.log.info({ host: config.email.smtpHost, port }, 'inbound SMTP server listening');
          resolve(port);
        });
      }).catch((error: Error) => {
        starting = null;
        app.log.error(
          { err: error },
          `The inbound SMTP server could not listen on ${config.email.smtpHost}:${config.email.smtpPort}; email is not being received`,
        );
        throw error;
      });
      return starting;
    };
    app.decorate('smtp', {
      get port() {
        return port;
      },
      start,
    } satisfies InboundSmtp);

    if (server) {
      server.on('error', (error) => app.log.warn({ err: error }, 'inbound SMTP error'));
      app.addHook('onListen', async () => {
        await start().catch(() => undefined); // logged by start()
      });
      app.addHook('onClose', async () => {
        if (!starting) return;
        await new Promise<void>((resolve) => server.close(() => resolve()));
      });
    }

    if (config.email.smtpUrl) {
      const adapter = createEmailAdapter(deps);
      app.channels.register(async ({ channel }) => (channel === 'email' ? adapter : null));
      app.addHook('onClose', async () => adapter.close());
    }
  },
  { name: 'email-channel' },
);

function createInboundServer(app: FastifyInstance, deps: EmailDeps): SMTPServer {
  const { email } = deps.config;
  return new SMTPServer({
    name: email.inboundDomain,
    banner: 'Switchboard inbound mail',
    size: email.maxBytes,
    authOptional: true,
    // An MX for our own domain: no relaying, no logins. TLS is for the MTA or proxy in front of it.
    disabledCommands: ['AUTH', 'STARTTLS'],
    disableReverseLookup: true,
    logger: false,
    maxClients: 200,
    socketTimeout: 60_000,
    closeTimeout: 10_000,

    onRcptTo(address, session, callback) {
      if (session.envelope.rcptTo.length >= MAX_RECIPIENTS) {
        callback(reply(452, '4.5.3 Too many recipients; send the rest separately.'));
        return;
      }
      locationOfRecipient(deps, address.address).then(
        (location) =>
          callback(location ? null : reply(550, `5.1.1 <${address.address}>: no such mailbox here.`)),
        (error: unknown) => {
          app.log.error({ err: error }, 'inbound SMTP recipient check failed');
          callback(reply(451, '4.3.0 Temporary failure; please try again later.'));
        },
      );
    },

    onData(stream, session, callback) {
      readMessage(stream, email.maxBytes)
        .then(async (raw) => {
          if (!raw) return callback(reply(552, `5.3.4 The message is larger than ${email.maxBytes} bytes.`));
          const result = await receiveEmail(deps, {
            raw,
            recipients: session.envelope.rcptTo.map((r) => r.address),
            mail_from: session.envelope.mailFrom ? session.envelope.mailFrom.address || null : null,
          });
          callback(null, result.report ? 'OK: delivery report received' : 'OK: message stored');
        })
        .catch((error: unknown) => {
          if (error instanceof SmtpReply) return callback(error);
          app.log.error({ err: error }, 'inbound email could not be stored; the sender will retry');
          callback(reply(451, '4.3.0 The message could not be stored; please try again later.'));
        });
    },
  });
}

/** The whole DATA stream, or null once it passes the limit (the rest is read and dropped). */
async function readMessage(stream: SMTPServerDataStream, maxBytes: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= maxBytes) chunks.push(chunk);
  }
  if (size > maxBytes || stream.sizeExceeded) return null;
  return Buffer.concat(chunks);
}
