import type { AddressInfo } from 'node:net';
import nodemailer from 'nodemailer';
import PostalMime, { type Email } from 'postal-mime';
import { SMTPServer } from 'smtp-server';

/** Test kit: an SMTP client for the app's inbound server, and a fake remote mail server for outbound. */

export function smtpClient(port: number) {
  return nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true });
}

export type Received = {
  mail_from: string;
  rcpt_to: string[];
  raw: Buffer;
  email: Email;
  header(name: string): string | undefined;
};

/** How the fake server answers: accept, 550 every recipient, or 421 every connection. */
export type FakeMode = 'accept' | 'reject' | 'defer';

export type FakeMailServer = {
  port: number;
  url: string;
  mode: FakeMode;
  received: Received[];
  connections: number;
  /** Called with each message once it is recorded: an autoresponder on the customer's side answers here. */
  onReceived: ((received: Received) => Promise<void>) | null;
  stop(): Promise<void>;
  /** Listens again on the same port after stop(). */
  restart(): Promise<void>;
};

const smtpError = (code: number, message: string) =>
  Object.assign(new Error(message), { responseCode: code });

/** A customer's mail server on loopback: records what it is sent, or refuses it as `mode` says. */
export async function fakeMailServer(): Promise<FakeMailServer> {
  let server: SMTPServer;
  const fake: FakeMailServer = {
    port: 0,
    url: '',
    mode: 'accept',
    received: [],
    connections: 0,
    onReceived: null,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
    restart: () => listen(fake.port),
  };

  const create = () =>
    new SMTPServer({
      authOptional: true,
      disabledCommands: ['AUTH', 'STARTTLS'],
      disableReverseLookup: true,
      logger: false,
      onConnect(_session, callback) {
        fake.connections++;
        callback(fake.mode === 'defer' ? smtpError(421, '4.7.0 Server busy, try again later') : null);
      },
      onRcptTo(address, _session, callback) {
        callback(
          fake.mode === 'reject'
            ? smtpError(550, `5.1.1 <${address.address}>: Recipient address rejected: User unknown`)
            : null,
        );
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', async () => {
          const raw = Buffer.concat(chunks);
          const email = await PostalMime.parse(raw);
          const received: Received = {
            mail_from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            rcpt_to: session.envelope.rcptTo.map((r) => r.address),
            raw,
            email,
            header: (name) => email.headers.find((h) => h.key === name.toLowerCase())?.value,
          };
          fake.received.push(received);
          callback();
          // After the answer, as a real server's autoresponder works from its queue.
          if (fake.onReceived) setImmediate(() => void fake.onReceived?.(received).catch(() => undefined));
        });
      },
    });

  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server = create();
      server.server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        fake.port = (server.server.address() as AddressInfo).port;
        fake.url = `smtp://127.0.0.1:${fake.port}`;
        resolve();
      });
    });

  await listen(0);
  return fake;
}

/** A delivery-status notification (RFC 3464) as a remote MTA sends it back for `originalMessageId`. */
export function deliveryStatusNotification(input: {
  to: string;
  originalMessageId: string;
  recipient: string;
  diagnostic: string;
  action?: 'failed' | 'delayed';
}): string {
  const action = input.action ?? 'failed';
  return [
    'From: Mail Delivery System <MAILER-DAEMON@mx.customer.example>',
    `To: ${input.to}`,
    'Subject: Undelivered Mail Returned to Sender',
    'Date: Fri, 02 Jan 2026 09:20:00 +1100',
    'Message-ID: <dsn.0001@mx.customer.example>',
    'Auto-Submitted: auto-replied',
    'MIME-Version: 1.0',
    'Content-Type: multipart/report; report-type=delivery-status;',
    '\tboundary="dsn-boundary"',
    '',
    '--dsn-boundary',
    'Content-Type: text/plain; charset=us-ascii',
    '',
    'This is the mail system at host mx.customer.example.',
    '',
    "I'm sorry to have to inform you that your message could not",
    'be delivered to one or more recipients.',
    '',
    '--dsn-boundary',
    'Content-Type: message/delivery-status',
    '',
    'Reporting-MTA: dns; mx.customer.example',
    'Arrival-Date: Fri, 02 Jan 2026 09:19:58 +1100',
    '',
    `Final-Recipient: rfc822; ${input.recipient}`,
    `Original-Recipient: rfc822;${input.recipient}`,
    `Action: ${action}`,
    `Status: ${action === 'failed' ? '5.1.1' : '4.4.1'}`,
    'Remote-MTA: dns; mail.customer.example',
    `Diagnostic-Code: smtp; ${input.diagnostic}`,
    '',
    '--dsn-boundary',
    'Content-Type: text/rfc822-headers',
    '',
    'From: "Harbourside Dental" <no-reply@inbound.switchboard.local>',
    `To: ${input.recipient}`,
    'Subject: Re: Booking',
    `Message-ID: <${input.originalMessageId}>`,
    '',
    '--dsn-boundary--',
    '',
  ].join('\r\n');
}
