import { type Db, enquiries, messages } from '@switchboard/db';
import { type Attachment, clipText } from '@switchboard/shared';
import { and, eq, inArray } from 'drizzle-orm';
import { fileTypeFromBuffer } from 'file-type';
import type { Config } from '../../config.ts';
import type { EventBus } from '../../events/bus.ts';
import { deleteUpload, saveUpload, toAttachment, type Upload } from '../../lib/storage.ts';
import { storableText } from '../../lib/text.ts';
import type { InboundSink } from '../types.ts';
import {
  enquiryOfReplyToken,
  findLocationByToken,
  type InboundLocation,
  inboundAddress,
  parseRecipient,
} from './address.ts';
import { withoutControls } from './html.ts';
import { contentMessageId } from './message-id.ts';
import { type DeliveryReport, type ParsedAttachment, type ParsedEmail, parseEmail } from './parse.ts';

export type EmailDeps = { db: Db; events: EventBus; config: Config; inbound: InboundSink };

/** An answer for the SMTP client: 5xx refuses for good (the sender gets a bounce), 4xx asks it to retry. */
export class SmtpReply extends Error {
  readonly responseCode: number;
  constructor(responseCode: number, message: string) {
    super(message);
    this.responseCode = responseCode;
  }
}

/** Attachments of one message beyond this many are not stored (and are listed in meta). */
const MAX_ATTACHMENTS = 30;
/** Declared types kept when the bytes do not identify themselves: text the browser shows, never runs. */
const TEXT_TYPES = new Set([
  'text/plain',
  'text/csv',
  'text/calendar',
  'text/vcard',
  'text/x-vcard',
  'text/markdown',
  'text/tab-separated-values',
  'application/json',
]);

type Target = { location: InboundLocation; address: string; reply_enquiry_id: string | null };

/** The location an envelope recipient names, or undefined: the RCPT TO check. */
export async function locationOfRecipient(
  deps: EmailDeps,
  address: string,
): Promise<InboundLocation | undefined> {
  const recipient = parseRecipient(storableText(address), deps.config.email.inboundDomain);
  return recipient ? findLocationByToken(deps.db, recipient.location_token) : undefined;
}

/**
 * Stores one received message for each location it was addressed to (or, for a delivery report, fails the
 * message it reports on). Returns only once everything is stored, so the SMTP "250" that follows means the
 * message is safe; a throw is answered 4xx (retry) or, for an SmtpReply, with its code.
 */
export async function receiveEmail(
  deps: EmailDeps,
  received: { raw: Buffer; recipients: string[]; mail_from: string | null },
): Promise<{ stored: number; bounced: number; report: boolean }> {
  // Headers and text may carry what the database refuses (a NUL, half an emoji): cleaned before any look-up,
  // so such a message is stored rather than answered 451 until its sender gives up.
  const input = {
    ...received,
    ...storableText({ recipients: received.recipients, mail_from: received.mail_from }),
  };
  let parsed: ParsedEmail;
  try {
    parsed = storableText(await parseEmail(input.raw));
  } catch {
    throw new SmtpReply(554, '5.6.0 The message could not be parsed.');
  }
  const targets = await resolveTargets(deps, input.recipients);
  if (targets.length === 0) throw new SmtpReply(550, '5.1.1 No such recipient here.');

  if (parsed.report) {
    let bounced = 0;
    for (const business_id of new Set(targets.map((t) => t.location.business_id))) {
      if (await applyDeliveryReport(deps, business_id, parsed.report)) bounced++;
    }
    return { stored: 0, bounced, report: true };
  }

  const sender =
    parsed.from ??
    (input.mail_from ? { address: input.mail_from.toLowerCase(), name: null as string | null } : null);
  if (!sender) throw new SmtpReply(550, '5.1.7 The message has no sender address.');
  // The product's own mail come back (a digest or reply forwarded to a location's address): taken and dropped,
  // never an enquiry from ourselves, and never answered (that is how two locations would loop).
  if (isOwnMail(deps.config, parsed, sender.address)) return { stored: 0, bounced: 0, report: false };
  // Sent with an empty return path (RFC 5321 §4.5.5): a bounce or other notification, whatever its headers say.
  const automatic =
    parsed.automatic ?? (input.mail_from === null || input.mail_from === '' ? 'auto-generated' : null);
  const messageId = parsed.message_id ?? contentMessageId(input.raw);
  let stored = 0;
  for (const target of targets) {
    if (await storeForLocation(deps, { ...parsed, automatic }, target, sender, messageId)) stored++;
  }
  return { stored, bounced: 0, report: false };
}

/**
 * Mail this server sent: its Message-ID is one we made (`…@INBOUND_EMAIL_DOMAIN`), or it is from one of our
 * addresses (a location's inbound address, the address our own notices come from).
 */
function isOwnMail(config: Config, parsed: ParsedEmail, sender: string): boolean {
  const domain = `@${config.email.inboundDomain}`;
  const author = parsed.sent_by ?? sender;
  const ours = (address: string) =>
    address.toLowerCase().endsWith(domain) || address.toLowerCase() === ownFrom(config);
  return Boolean(parsed.message_id?.toLowerCase().endsWith(domain)) || ours(author);
}

const ownFrom = (config: Config) =>
  (config.email.mailFrom.match(/<([^<>]+)>/)?.[1] ?? config.email.mailFrom).trim().toLowerCase();

/** One target per location; the first valid reply token addressed to a location names its enquiry. */
async function resolveTargets(deps: EmailDeps, recipients: string[]): Promise<Target[]> {
  const byLocation = new Map<string, Target>();
  for (const address of recipients) {
    const recipient = parseRecipient(address, deps.config.email.inboundDomain);
    if (!recipient) continue;
    const location = await findLocationByToken(deps.db, recipient.location_token);
    if (!location) continue;
    const reply = recipient.reply_token
      ? enquiryOfReplyToken(deps.config.encryptionKey, recipient.reply_token)
      : null;
    const known = byLocation.get(location.id);
    if (known) {
      known.reply_enquiry_id ??= reply;
      continue;
    }
    byLocation.set(location.id, {
      location,
      address: inboundAddress(deps.config.email.inboundDomain, location.inbound_email_token),
      reply_enquiry_id: reply,
    });
  }
  return [...byLocation.values()];
}

async function storeForLocation(
  deps: EmailDeps,
  parsed: ParsedEmail,
  target: Target,
  sender: { address: string; name: string | null },
  messageId: string,
): Promise<boolean> {
  const { location } = target;
  const key = await providerKey(deps.db, messageId, location);
  if (!key) return false;
  const enquiryId = (await threadEnquiry(deps.db, location, parsed.thread_ids)) ?? target.reply_enquiry_id;
  const saved = await saveAttachments(deps, location.business_id, parsed.attachments);
  try {
    const result = await deps.inbound.receive({
      provider: 'email',
      provider_message_id: key,
      channel: 'email',
      location_id: location.id,
      from: { email: sender.address, ...(sender.name ? { name: sender.name } : {}) },
      message: parsed.text,
      ...(parsed.subject ? { subject: parsed.subject } : {}),
      attachments: saved.attachments,
      meta: {
        from: sender.address,
        ...(sender.name ? { from_name: sender.name } : {}),
        ...(parsed.sent_by ? { sent_by: parsed.sent_by } : {}),
        to: target.address,
        ...(parsed.cc.length > 0 ? { cc: parsed.cc } : {}),
        message_id: messageId,
        ...(parsed.in_reply_to ? { in_reply_to: parsed.in_reply_to } : {}),
        ...(parsed.date ? { date: parsed.date } : {}),
        ...(parsed.html ? { html: parsed.html } : {}),
        ...(parsed.html && parsed.html_fuller ? { html_fuller: true } : {}),
        ...(parsed.quoted ? { quoted_text: parsed.quoted } : {}),
        ...(parsed.automatic ? { auto_submitted: true, auto_kind: parsed.automatic } : {}),
        ...(saved.skipped.length > 0 ? { skipped_attachments: saved.skipped } : {}),
      },
      ...(enquiryId ? { enquiry_id: enquiryId } : {}),
      ...(parsed.automatic ? { automatic: true } : {}),
    });
    if (result.duplicate) await discard(deps, saved.uploads);
    return !result.duplicate;
  } catch (error) {
    await discard(deps, saved.uploads);
    throw error;
  }
}

/**
 * The provider id to store the message under, or null when this location already has it (a re-delivery).
 * It is the Message-ID, unless another location (or anyone else) already holds that id: then it is suffixed
 * with this location's token, so one message sent to two locations is stored for each.
 */
async function providerKey(db: Db, messageId: string, location: InboundLocation): Promise<string | null> {
  const [existing] = await db
    .select({ direction: messages.direction, location_id: enquiries.location_id })
    .from(messages)
    .innerJoin(enquiries, eq(enquiries.id, messages.enquiry_id))
    .where(and(eq(messages.provider, 'email'), eq(messages.provider_message_id, messageId)));
  if (!existing) return messageId;
  if (existing.direction === 'in' && existing.location_id === location.id) return null;
  return `${messageId}#${location.inbound_email_token}`;
}

/** The enquiry at this location holding the message this one replies to (In-Reply-To, then References). */
async function threadEnquiry(db: Db, location: InboundLocation, ids: string[]): Promise<string | null> {
  if (ids.length === 0) return null;
  const wanted = ids.slice(0, 50);
  const keys = wanted.flatMap((id) => [id, `${id}#${location.inbound_email_token}`]);
  const rows = await db
    .select({ key: messages.provider_message_id, enquiry_id: messages.enquiry_id })
    .from(messages)
    .innerJoin(enquiries, eq(enquiries.id, messages.enquiry_id))
    .where(
      and(
        eq(messages.provider, 'email'),
        inArray(messages.provider_message_id, keys),
        eq(messages.business_id, location.business_id),
        eq(enquiries.location_id, location.id),
      ),
    );
  for (const id of wanted) {
    const row = rows.find((r) => r.key === id || r.key === `${id}#${location.inbound_email_token}`);
    if (row) return row.enquiry_id;
  }
  return null;
}

async function saveAttachments(deps: EmailDeps, businessId: string, parts: ParsedAttachment[]) {
  const uploads: Upload[] = [];
  const attachments: Attachment[] = [];
  const skipped: { name: string; size: number; reason: string }[] = [];
  try {
    for (const [index, part] of parts.entries()) {
      const name = fileName(part, index);
      if (part.content.length === 0) {
        skipped.push({ name, size: 0, reason: 'empty' });
        continue;
      }
      if (index >= MAX_ATTACHMENTS) {
        skipped.push({ name, size: part.content.length, reason: 'too_many' });
        continue;
      }
      if (part.content.length > deps.config.uploadMaxBytes) {
        skipped.push({ name, size: part.content.length, reason: 'too_large' });
        continue;
      }
      const upload = await saveUpload(deps.db, deps.config, {
        business_id: businessId,
        user_id: null,
        name,
        content_type: await contentType(part),
        bytes: part.content,
      });
      uploads.push(upload);
      attachments.push(toAttachment(upload));
    }
  } catch (error) {
    await discard(deps, uploads);
    throw error;
  }
  return { uploads, attachments, skipped };
}

/**
 * The type the bytes say they are; a part whose bytes say nothing keeps its declared type only when that is
 * plain text (an HTML or SVG "attachment" must not become a page on our origin).
 */
async function contentType(part: ParsedAttachment): Promise<string> {
  const sniffed = await fileTypeFromBuffer(part.content);
  if (sniffed) return sniffed.mime;
  const declared = part.declared_type.toLowerCase();
  const looksText = !part.content.subarray(0, 8192).includes(0);
  if (looksText && TEXT_TYPES.has(declared)) return declared;
  if (looksText && declared.startsWith('text/')) return 'text/plain';
  return 'application/octet-stream';
}

function fileName(part: ParsedAttachment, index: number): string {
  const given = clipText(
    withoutControls(part.filename ?? '', '_')
      .replace(/[/\\]+/g, '_')
      .trim(),
    200,
  );
  if (given) return given;
  if (part.declared_type === 'message/rfc822') return `message-${index + 1}.eml`;
  return `attachment-${index + 1}`;
}

async function discard(deps: EmailDeps, uploads: Upload[]): Promise<void> {
  for (const upload of uploads) await deleteUpload(deps.db, deps.config, upload).catch(() => undefined);
}

/**
 * A delivery report about one of this business's sent emails fails that message with the remote server's
 * reason. Reports that are not failures (delayed, delivered) and reports about nothing we sent change nothing.
 */
async function applyDeliveryReport(
  deps: EmailDeps,
  businessId: string,
  report: DeliveryReport,
): Promise<boolean> {
  if (!(report.failed || report.delayed) || report.original_message_ids.length === 0) return false;
  const [original] = await deps.db
    .select({ id: messages.id })
    .from(messages)
    .where(
      and(
        eq(messages.provider, 'email'),
        inArray(messages.provider_message_id, report.original_message_ids.slice(0, 50)),
        eq(messages.business_id, businessId),
        eq(messages.direction, 'out'),
      ),
    )
    .limit(1);
  if (!original) return false;
  if (report.failed)
    return deps.inbound.status({ message_id: original.id, status: 'failed', error: report.diagnostic });
  // A soft bounce: the message stays sent, with the remote server's warning on it for staff to see.
  return deps.inbound.warning({ message_id: original.id, warning: report.diagnostic });
}
