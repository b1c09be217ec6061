import { clipText } from '@switchboard/shared';
import { convert } from 'html-to-text';
import { type AddressObject, type EmailAddress, type ParsedMail, simpleParser } from 'mailparser';
import { sanitizeHtml, splitQuotedReply } from './html.ts';
import { messageIds, normaliseMessageId } from './message-id.ts';

/** The most of a message body kept as text; the rest stays in the customer's mailbox. */
const MAX_TEXT_CHARS = 200_000;
const MAX_HTML_CHARS = 500_000;
/** HTML longer than this is not turned into text (a pathological message); its text part, if any, is kept. */
const MAX_HTML_TO_TEXT_CHARS = 2_000_000;

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
  /**
   * True when a recipient failed for good: its Action is `failed`, or (a report without Action) its Status is
   * 5.x.x. A report of `delayed` (or a 4.x.x status) is a warning: the message may still arrive.
   */
  failed: boolean;
  /** No recipient failed, but one was delayed (Action `delayed`, or a 4.x.x Status): the message may still arrive. */
  delayed: boolean;
  /** The remote server's words (Diagnostic-Code), else the status code and the report's own text. */
  diagnostic: string;
};

/**
 * Why a message is automatic (RFC 3834 and the headers mail systems use in its place): such mail never gets an
 * automatic answer, and does not count as the customer replying.
 */
export type AutomaticKind = 'auto-reply' | 'list' | 'bulk' | 'auto-generated';

export type ParsedEmail = {
  message_id: string | null;
  /** In-Reply-To first, then References from the newest back: the order to look a thread up in. */
  thread_ids: string[];
  in_reply_to: string | null;
  subject: string | null;
  /**
   * The customer: the person a reply goes to. The Reply-To person when a form relay or mailing tool sends from
   * its own address, the author a list or group names (X-Original-Sender), else From.
   */
  from: { address: string; name: string | null } | null;
  /** The From address, when the customer is someone else (the relay's or the group's). */
  sent_by: string | null;
  to: string[];
  cc: string[];
  /** What the customer wrote; the quoted copy of earlier mail at the end is in `quoted`. */
  text: string;
  quoted: string | null;
  /** Sanitised (see html.ts), or null. */
  html: string | null;
  /** The HTML says more than the text (the text was made from it, or it holds more words): worth showing. */
  html_fuller: boolean;
  date: string | null;
  /** Why the message is automatic (an out-of-office reply, list or bulk mail, a notification), or null. */
  automatic: AutomaticKind | null;
  /** Every attachment, empty ones included (they are reported, not stored). */
  attachments: ParsedAttachment[];
  report: DeliveryReport | null;
};

export async function parseEmail(raw: Buffer): Promise<ParsedEmail> {
  const email = await simpleParser(raw, {
    // Turned into text here, with our own settings, only when there is no text part.
    skipHtmlToText: true,
    skipTextToHtml: true,
    skipImageLinks: true,
    skipTextLinks: true,
    keepCidLinks: true,
    // A delivery report's status part stays a part of its own, to be read field by field.
    keepDeliveryStatus: true,
  });
  const header = (key: string) => headerText(email, key);
  const inReplyTo = messageIds(header('in-reply-to'));
  const references = messageIds(header('references'));
  const threadIds = [...new Set([...inReplyTo, ...references.reverse()])];

  const attachments: ParsedAttachment[] = email.attachments.map((a) => ({
    filename: a.filename ?? null,
    declared_type: a.contentType.toLowerCase(),
    content: a.content,
    content_id: a.contentId ?? a.cid ?? null,
  }));

  const contentType = email.headers.get('content-type') as {
    value?: string;
    params?: Record<string, string>;
  };
  const isReport =
    contentType?.value?.toLowerCase() === 'multipart/report' &&
    /delivery-status/i.test(contentType.params?.['report-type'] ?? '');
  const report = isReport
    ? readDeliveryReport(
        attachments,
        email.text ?? '',
        threadIds,
        header('x-failed-recipients') !== undefined,
      )
    : null;

  const rawHtml = typeof email.html === 'string' ? email.html : null;
  const html = rawHtml ? sanitizeHtml(rawHtml).trim() || null : null;
  const htmlText = rawHtml && rawHtml.length <= MAX_HTML_TO_TEXT_CHARS ? textOfHtml(rawHtml) : '';
  const partText = (email.text ?? '').trim();
  const fullText = partText || htmlText;
  const { body, quoted } = splitQuotedReply(clipText(fullText, MAX_TEXT_CHARS));

  const author = mailboxes(email.from)[0];
  const customer = customerOf(email, author);

  return {
    message_id: normaliseMessageId(header('message-id')),
    thread_ids: threadIds,
    in_reply_to: inReplyTo[0] ?? null,
    subject: email.subject?.trim() || null,
    from: customer ? { address: customer.address.toLowerCase(), name: customer.name || null } : null,
    sent_by:
      author && customer && author.address.toLowerCase() !== customer.address.toLowerCase()
        ? author.address.toLowerCase()
        : null,
    to: mailboxes(email.to).map((m) => m.address.toLowerCase()),
    cc: mailboxes(email.cc).map((m) => m.address.toLowerCase()),
    text: body,
    quoted,
    html: html && html.length <= MAX_HTML_CHARS ? html : null,
    html_fuller: Boolean(html) && saysMore(htmlText, partText),
    date: email.date && !Number.isNaN(email.date.getTime()) ? email.date.toISOString() : null,
    automatic: automaticKind(email),
    attachments: isReport ? [] : attachments,
    report,
  };
}

/** A header's value as written (unfolded), whatever mailparser made of it; undefined when absent. */
function headerText(email: ParsedMail, key: string): string | undefined {
  const line = email.headerLines.find((h) => h.key === key)?.line;
  if (line === undefined) return undefined;
  return line
    .slice(line.indexOf(':') + 1)
    .replace(/\r?\n[ \t]+/g, ' ')
    .trim();
}

/** Readable text of an HTML body: paragraphs and lists as lines, links with their address, no images. */
function textOfHtml(html: string): string {
  return convert(html, {
    wordwrap: false,
    selectors: [
      { selector: 'img', format: 'skip' },
      { selector: 'a', options: { hideLinkHrefIfSameAsText: true, ignoreHref: false } },
      ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector) => ({
        selector,
        options: { uppercase: false },
      })),
      { selector: 'table', format: 'dataTable', options: { uppercaseHeaderCells: false } },
    ],
  })
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Whether the HTML's text holds noticeably more than the text part (a made-up text part, a dropped table). */
function saysMore(htmlText: string, text: string): boolean {
  if (!text) return htmlText.length > 0;
  const words = (s: string) => s.replace(/\[[^\]]*\]|\([^)]*\)|\s+/g, ' ').trim().length;
  return words(htmlText) > words(text) * 1.2 + 40;
}

type Mailbox = { address: string; name: string };

/** The valid addresses of an address header, group members included. */
function mailboxes(addresses: AddressObject | AddressObject[] | undefined): Mailbox[] {
  const all: EmailAddress[] = [];
  for (const object of Array.isArray(addresses) ? addresses : addresses ? [addresses] : []) {
    for (const a of object.value) all.push(...(a.group ?? [a]));
  }
  return all.flatMap((m) =>
    m.address && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(m.address) ? [{ address: m.address, name: m.name }] : [],
  );
}

/**
 * Who the business is talking to. A list or Google Group names its author (X-Original-Sender); a form relay or
 * mailing tool sends from its own address and puts the person in Reply-To. A Reply-To that is the list's own
 * posting address, or not an address at all, leaves the author as From.
 */
function customerOf(email: ParsedMail, author: Mailbox | undefined): Mailbox | undefined {
  const original = originalSender(headerText(email, 'x-original-sender'));
  if (original) return { address: original, name: author?.name ?? '' };
  const replyTo = mailboxes(email.replyTo);
  const listPost = headerText(email, 'list-post')
    ?.match(/mailto:([^>?\s]+)/i)?.[1]
    ?.toLowerCase();
  const person = replyTo.length === 1 ? replyTo[0] : undefined;
  if (!person || !author) return author ?? person;
  const address = person.address.toLowerCase();
  if (address === author.address.toLowerCase() || address === listPost) return author;
  return person;
}

/** The address in X-Original-Sender (`a@b.c` or `Name <a@b.c>`), or null. */
function originalSender(value: string | undefined): string | null {
  const address = value?.match(/<([^<>\s]+)>/)?.[1] ?? value?.trim();
  return address && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(address) ? address : null;
}

const AUTO_REPLY_SUBJECT =
  /^\s*(automatic reply|auto[- ]?reply|autoreply|auto[- ]?response|out of (the )?office( reply| autoreply)?|abwesenheitsnotiz|réponse automatique|respuesta automática)\s*:/i;

/**
 * RFC 3834's Auto-Submitted (anything but `no`), the headers autoresponders used before it (X-Autoreply,
 * X-Autorespond, Precedence), list mail (List-Id, List-Unsubscribe), Exchange's X-Auto-Response-Suppress, and
 * the subjects out-of-office replies are sent with.
 */
function automaticKind(email: ParsedMail): AutomaticKind | null {
  const h = (key: string) => headerText(email, key);
  const submitted = h('auto-submitted')?.toLowerCase();
  if (submitted && !/^no\b/.test(submitted))
    return submitted.startsWith('auto-replied') ? 'auto-reply' : 'auto-generated';
  if (
    ['x-autoreply', 'x-autorespond', 'x-autoresponder', 'x-autoreply-from', 'x-mail-autoreply'].some(
      (k) => h(k) !== undefined,
    ) ||
    /^reply\b/i.test(h('x-autogenerated') ?? '')
  )
    return 'auto-reply';
  const precedence = h('precedence')?.toLowerCase() ?? '';
  if (/^auto_reply\b/.test(precedence)) return 'auto-reply';
  if (/^list\b/.test(precedence) || h('list-id') !== undefined || h('list-unsubscribe') !== undefined)
    return 'list';
  if (/^(bulk|junk)\b/.test(precedence)) return 'bulk';
  const suppress = h('x-auto-response-suppress');
  if (suppress && !/^none\b/i.test(suppress)) return 'auto-generated';
  if (AUTO_REPLY_SUBJECT.test(email.subject ?? '')) return 'auto-reply';
  return null;
}

function readDeliveryReport(
  parts: ParsedAttachment[],
  humanText: string,
  threadIds: string[],
  failedRecipients: boolean,
): DeliveryReport {
  // Some servers send more than one status part (the first of them prose): every recipient of every part counts.
  const recipients = parts
    .filter(
      (p) =>
        p.declared_type === 'message/delivery-status' || p.declared_type === 'message/global-delivery-status',
    )
    .flatMap((p) => fieldGroups(p.content.toString('utf8')).slice(1));
  const returned = parts.find(
    (p) =>
      p.declared_type === 'message/rfc822' ||
      p.declared_type === 'text/rfc822-headers' ||
      p.declared_type === 'message/global' ||
      p.declared_type === 'message/global-headers',
  );
  const original = returned
    ? normaliseMessageId(headerOf(returned.content.toString('utf8'), 'message-id'))
    : null;
  const failedRecipient = recipients.find((r) => outcomeOf(r) === 'failed');
  const delayedRecipient = recipients.find((r) => outcomeOf(r) === 'delayed');
  const reported = failedRecipient ?? delayedRecipient ?? recipients[0];
  // A report whose status part says nothing (Gmail's can be empty): the server's reply in its own words decides.
  const spoken = reported ? null : spokenOutcome(humanText, failedRecipients);
  const diagnostic =
    reported?.['diagnostic-code']?.replace(/^\s*[a-z0-9-]+\s*;\s*/i, '') ||
    spoken?.line ||
    [reported?.status, humanText.trim().split('\n')[0]].filter(Boolean).join(' ') ||
    'The recipient mail server returned the message.';
  const failed = Boolean(failedRecipient) || spoken?.outcome === 'failed';
  return {
    original_message_ids: [...new Set([...(original ? [original] : []), ...threadIds])],
    failed,
    delayed: !failed && (Boolean(delayedRecipient) || spoken?.outcome === 'delayed'),
    diagnostic: clipText(diagnostic.replace(/\s+/g, ' ').trim(), 1000),
  };
}

/**
 * The remote server's answer quoted in a report's text ("550 5.1.1 The email account … does not exist"): a
 * 5xx reply, or X-Failed-Recipients with no reply quoted, is a failure; a 4xx one a delay.
 */
function spokenOutcome(
  text: string,
  failedRecipients: boolean,
): { outcome: 'failed' | 'delayed'; line: string | null } | null {
  const unfolded = text.replace(/\r?\n(?!\r?\n)/g, ' ');
  const reply = unfolded.match(/\b([45])\d\d[ -]\1\.\d{1,3}\.\d{1,3}\b[^\n]*/);
  if (reply) return { outcome: reply[1] === '5' ? 'failed' : 'delayed', line: reply[0] };
  return failedRecipients ? { outcome: 'failed', line: null } : null;
}

/**
 * What a report says of one recipient: its Action when it has one, else its Status (5.x.x permanent, 4.x.x
 * transient), which some servers send alone.
 */
function outcomeOf(recipient: Record<string, string>): 'failed' | 'delayed' | 'other' {
  const action = recipient.action?.trim().toLowerCase();
  if (action === 'failed') return 'failed';
  if (action === 'delayed') return 'delayed';
  if (action) return 'other';
  const status = recipient.status?.trim() ?? '';
  if (/^5\.\d{1,3}\.\d{1,3}\b/.test(status)) return 'failed';
  if (/^4\.\d{1,3}\.\d{1,3}\b/.test(status)) return 'delayed';
  return 'other';
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
