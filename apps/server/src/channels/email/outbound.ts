import { type Db, locations, messages } from '@switchboard/db';
import { ASSISTANT_AUTO, isValidEmail } from '@switchboard/shared';
import { eq } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import type { Config } from '../../config.ts';
import { PermanentSendError, TransientSendError } from '../../lib/provider-errors.ts';
import { findUpload, readUpload } from '../../lib/storage.ts';
import type { ChannelAdapter, OutboundMessage, SendResult } from '../types.ts';
import { inboundAddress, replyToken } from './address.ts';
import { isMessageId, newMessageId } from './message-id.ts';

/** References keeps the thread's root and its latest ids, as mail clients do, so the header stays short. */
const MAX_REFERENCES = 20;

export type EmailAdapter = ChannelAdapter & { close(): void };

/**
 * Sends email through the SMTP relay at SMTP_URL. Each message gets its own Message-ID (returned as the
 * provider id, so replies and bounces find it), threads under the earlier messages of the enquiry, and asks
 * for replies at the location's plus-address for this enquiry. Bounces come back to the location's address.
 */
export function createEmailAdapter(deps: { db: Db; config: Config }): EmailAdapter {
  const { config, db } = deps;
  const domain = config.email.inboundDomain;
  const transport = nodemailer.createTransport({
    url: config.email.smtpUrl,
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 60_000,
  });

  async function send(message: OutboundMessage): Promise<SendResult> {
    const to = message.to.email;
    if (!to || !isValidEmail(to)) {
      throw new PermanentSendError('This customer has no valid email address to write to.');
    }
    const [row] = await db
      .select({
        enquiry_id: messages.enquiry_id,
        location_name: locations.name,
        location_email: locations.email_address,
        token: locations.inbound_email_token,
      })
      .from(messages)
      .innerJoin(locations, eq(locations.id, message.location_id))
      .where(eq(messages.id, message.id));
    if (!row) throw new PermanentSendError('The message to send no longer exists.');

    // A message that reached two locations is stored under `<id>#<location token>` at the second: the
    // headers carry the Message-ID the customer's mail had.
    const suffix = `#${row.token}`;
    const thread = [
      ...new Set(
        message.thread.provider_message_ids.map((id) =>
          id.endsWith(suffix) ? id.slice(0, -suffix.length) : id,
        ),
      ),
    ].filter(isMessageId);
    const references =
      thread.length > MAX_REFERENCES ? [thread[0]!, ...thread.slice(-(MAX_REFERENCES - 1))] : thread;
    const locationAddress = inboundAddress(domain, row.token);
    const fromAddress =
      row.location_email && isValidEmail(row.location_email) ? row.location_email : `no-reply@${domain}`;
    const messageId = newMessageId(domain);

    const attachments = await Promise.all(
      message.attachments.map(async (a) => {
        const upload = await findUpload(db, message.business_id, a.id);
        const content = upload && (await readUpload(config, upload));
        if (!upload || !content)
          throw new PermanentSendError(`The attachment ${a.name} is no longer stored.`);
        return { filename: a.name, content, contentType: upload.content_type };
      }),
    );

    try {
      await transport.sendMail({
        // Bounces go to the location's own address, where the inbound server matches them to this message.
        envelope: { from: locationAddress, to: [to] },
        from: { name: row.location_name ?? message.from.location_name ?? '', address: fromAddress },
        to: { name: message.to.name ?? '', address: to },
        replyTo: inboundAddress(domain, row.token, replyToken(config.encryptionKey, row.enquiry_id)),
        subject: subjectOf(message.subject, thread.length > 0),
        text: message.message,
        messageId: `<${messageId}>`,
        ...(thread.length > 0
          ? { inReplyTo: `<${thread.at(-1)}>`, references: references.map((id) => `<${id}>`).join(' ') }
          : {}),
        attachments,
        headers: automaticHeaders(message.meta?.auto),
      });
    } catch (error) {
      throw sendError(error);
    }
    return { provider: 'email', provider_message_id: messageId };
  }

  return { provider: 'email', send, close: () => transport.close() };
}

/**
 * What the business sends by itself says so (RFC 3834), so that autoresponders do not answer it and Exchange
 * sends no out-of-office or read receipts back: the assistant's answers are `auto-replied`, the rest
 * (reminders, review requests) `auto-generated`. A teammate's reply carries neither.
 */
export function automaticHeaders(auto: unknown): Record<string, string> {
  if (typeof auto !== 'string') return {};
  return {
    'Auto-Submitted': auto === ASSISTANT_AUTO ? 'auto-replied' : 'auto-generated',
    'X-Auto-Response-Suppress': 'All',
  };
}

/** The message's subject, marked as a reply when it continues a thread and is not marked already. */
export function subjectOf(subject: string | undefined, replying: boolean): string {
  const s = (subject ?? '').trim();
  if (!replying || /^(re|aw|sv|antw)\s*:/i.test(s)) return s;
  return s ? `Re: ${s}` : 'Re:';
}

type SmtpFailure = { responseCode?: number; response?: string; code?: string; message?: string };

/**
 * The relay's answer decides: 5xx (a refused recipient, a rejected message) fails the message with the
 * server's words; 4xx, a refused or dropped connection, or a timeout is worth retrying.
 */
function sendError(error: unknown): Error {
  if (error instanceof PermanentSendError || error instanceof TransientSendError) return error;
  const e = (error ?? {}) as SmtpFailure;
  const reason = (e.response || e.message || String(error)).replace(/\s+/g, ' ').trim();
  if (typeof e.responseCode === 'number') {
    return e.responseCode >= 500
      ? new PermanentSendError(reason, String(e.responseCode))
      : new TransientSendError(reason);
  }
  // Nodemailer's own refusals before anything is sent (no recipients, a malformed address) will not improve.
  if (e.code === 'EENVELOPE' || e.code === 'EMESSAGE') return new PermanentSendError(reason);
  return new TransientSendError(reason);
}
