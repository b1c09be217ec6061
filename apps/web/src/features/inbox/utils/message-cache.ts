import type { MessageStatus } from '@switchboard/shared';
import type { MessageDto, MessagePage, Paged } from '../types.ts';

// Statuses only move forward; a late echo (the POST's answer after the socket said "delivered") must not
// move a tick back.
const STATUS_RANK: Record<MessageStatus, number> = {
  queued: 0,
  received: 0,
  sent: 1,
  delivered: 2,
  read: 3,
  failed: 4,
};

/** The id an optimistic message carries until the server's copy replaces it. */
export const optimisticId = (clientId: string) => `client:${clientId}`;

export function sameMessage(a: MessageDto, b: MessageDto): boolean {
  return a.id === b.id || (a.client_id !== null && a.client_id === b.client_id);
}

/**
 * The newer of two copies of one message. Status updates from the server carry no sender, so the sender
 * already known is kept.
 */
export function mergeMessage(current: MessageDto, incoming: MessageDto): MessageDto {
  const forward = STATUS_RANK[incoming.status] >= STATUS_RANK[current.status];
  return {
    ...current,
    ...incoming,
    status: forward ? incoming.status : current.status,
    error: forward ? incoming.error : current.error,
    team_user: incoming.team_user ?? current.team_user,
    client_id: incoming.client_id ?? current.client_id,
  };
}

function replaceIn(data: Paged<MessagePage>, message: MessageDto): Paged<MessagePage> | null {
  let found = false;
  const pages = data.pages.map((page) => {
    if (found || !page.items.some((m) => sameMessage(m, message))) return page;
    found = true;
    return {
      ...page,
      items: page.items.map((m) => (sameMessage(m, message) ? mergeMessage(m, message) : m)),
    };
  });
  return found ? { ...data, pages } : null;
}

/**
 * Adds a message to an open thread, or merges it into the copy already there: the same id, or the
 * optimistic copy with the same client_id (reconciling a send with its echo, in either order). New messages
 * go into the newest page (the first fetched), in time order.
 */
export function upsertMessage(data: Paged<MessagePage>, message: MessageDto): Paged<MessagePage> {
  const replaced = replaceIn(data, message);
  if (replaced) return replaced;
  const [newest, ...older] = data.pages;
  if (!newest) return data;
  const items = [...newest.items];
  const when = Date.parse(message.created_at);
  let at = items.length;
  while (at > 0 && Date.parse(items[at - 1]?.created_at ?? '') > when) at -= 1;
  items.splice(at, 0, message);
  return { ...data, pages: [{ ...newest, items }, ...older] };
}

/** A status change for a message in the thread; one not loaded (an older page) is left alone. */
export function updateMessage(data: Paged<MessagePage>, message: MessageDto): Paged<MessagePage> {
  return replaceIn(data, message) ?? data;
}

/** Takes back an optimistic message the server refused (the composer gets its text back). */
export function removeMessage(data: Paged<MessagePage>, clientId: string): Paged<MessagePage> {
  const id = optimisticId(clientId);
  if (!data.pages.some((p) => p.items.some((m) => m.id === id))) return data;
  return { ...data, pages: data.pages.map((p) => ({ ...p, items: p.items.filter((m) => m.id !== id) })) };
}

/**
 * The newest page as the server sent it, with this browser's own replies that the server does not have yet (on
 * their way, or not sent and waiting for Retry) kept in their place: the thread fetched again (a reconnect, a
 * conversation event) must not drop a reply the person wrote.
 */
export function keepLocalMessages(
  page: MessagePage,
  previous: Paged<MessagePage> | undefined,
  held: MessageDto[] = [],
): MessagePage {
  const local: MessageDto[] = [];
  for (const m of [...held, ...flattenMessages(previous).filter((c) => c.id.startsWith('client:'))]) {
    if (page.items.some((i) => sameMessage(i, m)) || local.some((l) => sameMessage(l, m))) continue;
    local.push(m);
  }
  if (local.length === 0) return page;
  let data: Paged<MessagePage> = { pages: [page], pageParams: [page.page] };
  for (const m of local) data = upsertMessage(data, m);
  return data.pages[0] ?? page;
}

/**
 * The thread oldest to newest. Pages are fetched newest first by offset, so a page fetched after new
 * messages arrived repeats some already shown: each message appears once.
 */
export function flattenMessages(data: Paged<MessagePage> | undefined): MessageDto[] {
  const seen = new Set<string>();
  const out: MessageDto[] = [];
  const pages = data?.pages ?? [];
  for (const page of [...pages].reverse()) {
    for (const message of page.items) {
      if (seen.has(message.id)) continue;
      seen.add(message.id);
      out.push(message);
    }
  }
  return out;
}

export type OptimisticInput = {
  clientId: string;
  enquiryId: string;
  customerId: string;
  channel: string;
  message: string;
  subject?: string;
  attachments: MessageDto['attachments'];
  user: { id: string; fullName: string; avatar: string | null };
  now?: Date;
};

/** Spec §4: an optimistic message starts queued; an email's call summary and transcription, not_started. */
export function optimisticMessage(input: OptimisticInput): MessageDto {
  const at = (input.now ?? new Date()).toISOString();
  const email = input.channel === 'email';
  return {
    id: optimisticId(input.clientId),
    enquiry_id: input.enquiryId,
    customer_id: input.customerId,
    channel: input.channel,
    direction: 'out',
    message: input.message,
    team_user_id: input.user.id,
    team_user: { full_name: input.user.fullName, avatar: input.user.avatar },
    meta: input.subject ? { subject: input.subject } : {},
    attachments: input.attachments,
    status: 'queued',
    error: null,
    client_id: input.clientId,
    created_at: at,
    updated_at: at,
    summary: null,
    summary_details: null,
    call_location_details: null,
    call_summary_status: email ? 'not_started' : null,
    call_transcription_status: email ? 'not_started' : null,
    ai_interaction: null,
    ai_original: null,
    user_modified: null,
  };
}
