import { clipText } from '@switchboard/shared';
import PostalMime, { type Address } from 'postal-mime';
import { sanitizeHtml, splitQuotedReply } from './html.ts';
import { messageIds, normaliseMessageId } from './message-id.ts';

/** The most of a message body kept as text; the rest stays in the customer's mailbox. */
const MAX_TEXT_CHARS = 200_000;
const MAX_HTML_CHARS = 500_000;

export type ParsedAttachment = {
  filename: string | null;
  declared_type: string;
  content: Buffer;
  content_id: string | null;
};

/** What a delivery-status notification (RFC 3464) says about a message we sent. */
export type DeliveryReport = {
  /** The Message-IDs of the message it reports on: from the returned headers, then In-Reply-To/References. */
  original_message_ids: string[];
  /** True when a recipient's Action is `failed` (not `delayed`, `delivered`, `relayed`, `expanded`). */
  failed: boolean;
  /** The remote server's words (Diagnostic-Code), else the status code and the report's own text. */
  diagnostic: string;
};

export type ParsedEmail = {
  message_id: string | null;
  /** In-Reply-To first, then References from the newest back: the order to look a thread up in. */
  thread_ids: string[];
  in_reply_to: string | null;
  subject: string | null;
  from: { address: string; name: string | null } | null;
  to: string[];
  cc: string[];
  /** What the customer wrote; the quoted copy of earlier mail at the end is in `quoted`. */
  text: string;
  quoted: string | null;
  /** Sanitised (see html.ts), or null. */
  html: string | null;
  date: string | null;
  /** An out-of-office or other machine reply (RFC 3834 Auto-Submitted, Precedence, X-Autoreply): never answer it automatically. */
  auto_submitted: boolean;
  attachments: ParsedAttachment[];
  report: DeliveryReport | null;
};

export async function parseEmail(raw: Buffer): Promise<ParsedEmail> {
  const email = await PostalMime.parse(raw, { attachmentEncoding: 'arraybuffer' });
  const header = (key: string) => email.headers.find((h) => h.key === key)?.value;
  const inReplyTo = messageIds(email.inReplyTo);
  const references = messageIds(email.references);
  const threadIds = [...new Set([...inReplyTo, ...references.reverse()])];

  const attachments: ParsedAttachment[] = email.attachments.map((a) => ({
    filename: a.filename,
    declared_type: a.mimeType,
    content: toBuffer(a.content),
    content_id: a.contentId ?? null,
  }));

  const contentType = header('content-type') ?? '';
  const isReport =
    /^\s*multipart\/report\b/i.test(contentType) && /report-type\s*=\s*"?delivery-status/i.test(contentType);
  const report = isReport ? readDeliveryReport(attachments, email.text ?? '', threadIds) : null;

  const { body, quoted } = splitQuotedReply(clipText(email.text ?? '', MAX_TEXT_CHARS));
  const html = email.html ? sanitizeHtml(email.html).trim() || null : null;
  const from = firstMailbox(email.from ? [email.from] : []);

  return {
    message_id: normaliseMessageId(email.messageId),
    thread_ids: threadIds,
    in_reply_to: inReplyTo[0] ?? null,
    subject: email.subject?.trim() || null,
    from: from ? { address: from.address.toLowerCase(), name: from.name || null } : null,
    to: mailboxes(email.to).map((m) => m.address.toLowerCase()),
    cc: mailboxes(email.cc).map((m) => m.address.toLowerCase()),
    text: body,
    quoted,
    html: html && html.length <= MAX_HTML_CHARS ? html : null,
    date: email.date ?? null,
    auto_submitted:
      /^\s*auto-/i.test(header('auto-submitted') ?? '') ||
      /^\s*(bulk|junk|list|auto_reply)\b/i.test(header('precedence') ?? '') ||
      header('x-autoreply') !== undefined ||
      header('x-autorespond') !== undefined,
    attachments: isReport ? [] : attachments,
    report,
  };
}

function toBuffer(content: ArrayBuffer | Uint8Array | string): Buffer {
  if (typeof content === 'string') return Buffer.from(content, 'utf8');
  return content instanceof ArrayBuffer ? Buffer.from(content) : Buffer.from(content);
}

function mailboxes(addresses: Address[] | undefined): { address: string; name: string }[] {
  const out: { address: string; name: string }[] = [];
  for (const a of addresses ?? []) {
    if (a.group) out.push(...a.group.filter((m) => m.address));
    else if (a.address) out.push({ address: a.address, name: a.name });
  }
  return out.filter((m) => /^[^\s@]+@[^\s@]+$/.test(m.address));
}

const firstMailbox = (addresses: Address[]) => mailboxes(addresses)[0];

function readDeliveryReport(
  parts: ParsedAttachment[],
  humanText: string,
  threadIds: string[],
): DeliveryReport {
  const status = parts.find((p) => p.declared_type === 'message/delivery-status');
  const returned = parts.find(
    (p) => p.declared_type === 'message/rfc822' || p.declared_type === 'text/rfc822-headers',
  );
  const original = returned
    ? normaliseMessageId(headerOf(returned.content.toString('utf8'), 'message-id'))
    : null;
  const recipients = status ? fieldGroups(status.content.toString('utf8')).slice(1) : [];
  const failedRecipient = recipients.find((r) => r.action?.toLowerCase() === 'failed');
  const reported = failedRecipient ?? recipients[0];
  const diagnostic =
    reported?.['diagnostic-code']?.replace(/^\s*[a-z0-9-]+\s*;\s*/i, '') ||
    [reported?.status, humanText.trim().split('\n')[0]].filter(Boolean).join(' ') ||
    'The recipient mail server returned the message.';
  return {
    original_message_ids: [...new Set([...(original ? [original] : []), ...threadIds])],
    failed: Boolean(failedRecipient),
    diagnostic: clipText(diagnostic.replace(/\s+/g, ' ').trim(), 1000),
  };
}

/** The value of one header in a header block (unfolded), or undefined. */
function headerOf(text: string, name: string): string | undefined {
  const head = text.split(/\r?\n\r?\n/)[0] ?? '';
  return fieldGroups(head)[0]?.[name];
}

/**
 * A delivery-status body: groups of `Field: value` lines separated by blank lines (the per-message group,
 * then one per recipient). Continuation lines are unfolded; names are lower-cased.
 */
function fieldGroups(text: string): Record<string, string>[] {
  const groups: Record<string, string>[] = [];
  let current: Record<string, string> | null = null;
  let last: string | null = null;
  for (const line of text.split(/\r?\n/)) {
    if (!line.trim()) {
      current = null;
      last = null;
      continue;
    }
    if (!current) {
      current = {};
      groups.push(current);
    }
    if (/^\s/.test(line) && last) {
      current[last] += ` ${line.trim()}`;
      continue;
    }
    const colon = line.indexOf(':');
    if (colon < 1) continue;
    last = line.slice(0, colon).trim().toLowerCase();
    if (!(last in current)) current[last] = line.slice(colon + 1).trim();
    else last = null;
  }
  return groups;
}
