/**
 * What an email message carries in its free-form `meta`, read and checked at runtime: meta is whatever the server
 * stored, so each field is taken only when it has the expected shape.
 */

export type AutoKind = 'auto-reply' | 'list' | 'bulk' | 'auto-generated';
export type SkipReason = 'empty' | 'too_large' | 'too_many';
export type SkippedAttachment = { name: string; size: number; reason: SkipReason };

export type EmailMeta = {
  /** Sanitised HTML of the email, when the server kept it. */
  html: string | null;
  /** The HTML says more than the text shown in the bubble (tables, links): offer "Show original". */
  htmlFuller: boolean;
  /** Set only for automatic mail (out of office, lists, bulk, machine-sent). */
  autoKind: AutoKind | null;
  skippedAttachments: SkippedAttachment[];
  deliveryWarning: string | null;
  /** The relay that sent the email on the customer's behalf (a website form, a mailing service). */
  sentBy: string | null;
};

const AUTO_KINDS: readonly AutoKind[] = ['auto-reply', 'list', 'bulk', 'auto-generated'];
const SKIP_REASONS: readonly SkipReason[] = ['empty', 'too_large', 'too_many'];

const nonEmptyString = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value : null;

function isSkipped(value: unknown): value is SkippedAttachment {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.name === 'string' &&
    typeof v.size === 'number' &&
    Number.isFinite(v.size) &&
    v.size >= 0 &&
    SKIP_REASONS.includes(v.reason as SkipReason)
  );
}

function autoKindOf(meta: Record<string, unknown>): AutoKind | null {
  if (meta.auto_submitted !== true) return null;
  return AUTO_KINDS.includes(meta.auto_kind as AutoKind) ? (meta.auto_kind as AutoKind) : 'auto-generated';
}

export function readEmailMeta(meta: unknown, direction: 'in' | 'out'): EmailMeta {
  const m = typeof meta === 'object' && meta !== null ? (meta as Record<string, unknown>) : {};
  const inbound = direction === 'in';
  const html = nonEmptyString(m.html);
  return {
    html,
    htmlFuller: html !== null && m.html_fuller === true,
    autoKind: inbound ? autoKindOf(m) : null,
    skippedAttachments:
      inbound && Array.isArray(m.skipped_attachments) ? m.skipped_attachments.filter(isSkipped) : [],
    deliveryWarning: inbound ? null : nonEmptyString(m.delivery_warning),
    sentBy: inbound ? nonEmptyString(m.sent_by) : null,
  };
}

/** The Instagram story a customer's message answered or mentioned the business in (`meta.story`). */
export type StoryMeta = { kind: 'reply' | 'mention'; url: string | null };

export function readStory(meta: unknown): StoryMeta | null {
  const story = (meta as { story?: unknown } | null)?.story as Record<string, unknown> | undefined;
  if (typeof story !== 'object' || story === null) return null;
  if (story.kind !== 'reply' && story.kind !== 'mention') return null;
  const url = typeof story.url === 'string' && /^https:\/\//i.test(story.url) ? story.url : null;
  return { kind: story.kind, url };
}

/** When the customer unsent the message (`meta.unsent_at`, Instagram), or null. */
export function unsentAt(meta: unknown): string | null {
  const at = (meta as { unsent_at?: unknown } | null)?.unsent_at;
  return typeof at === 'string' && at !== '' ? at : null;
}

/** Who sent an outgoing message that no person wrote: the assistant, or an automatic text; null for people. */
export function automaticSender(message: {
  direction: 'in' | 'out';
  team_user: unknown;
  ai_interaction: string | null;
  /** Absent on a reply still on its way (the browser's own copy until the server answers). */
  meta?: Record<string, unknown> | null;
}): 'assistant' | 'automatic' | null {
  if (message.direction !== 'out' || message.team_user) return null;
  if (message.ai_interaction === 'ai_generated') return 'assistant';
  return typeof message.meta?.auto === 'string' ? 'automatic' : null;
}
