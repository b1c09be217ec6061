import type { messages } from '@switchboard/db';
import { clipText, type MessageDto } from '@switchboard/shared';

type MessageRecord = typeof messages.$inferSelect;

/** The longest preview, ellipsis included. */
export const PREVIEW_CHARS = 140;

const iso = (d: Date | string) => (d instanceof Date ? d.toISOString() : new Date(d).toISOString());

export function toMessageDto(
  m: MessageRecord,
  teamUser: { full_name: string; avatar: string | null } | null,
): MessageDto {
  return {
    id: m.id,
    enquiry_id: m.enquiry_id,
    customer_id: m.customer_id,
    channel: m.channel,
    direction: m.direction,
    message: m.message,
    team_user_id: m.team_user_id,
    team_user: m.team_user_id ? teamUser : null,
    meta: m.meta,
    attachments: m.attachments,
    status: m.status,
    error: m.error,
    client_id: m.client_id,
    created_at: iso(m.created_at),
    updated_at: iso(m.updated_at),
    summary: m.summary,
    summary_details: m.summary_details ?? null,
    call_location_details: m.call_location_details ?? null,
    call_summary_status: m.call_summary_status,
    call_transcription_status: m.call_transcription_status,
    ai_interaction: m.ai_interaction,
    ai_original: m.ai_original,
    user_modified: m.user_modified,
  };
}

/** What an enquiry's list entry, a notification and a push show of a message: its first line's worth, whole graphemes. */
export function preview(text: string, attachments: number): string {
  const t = text.replace(/\s+/g, ' ').trim();
  if (t) return clipText(t, PREVIEW_CHARS, '…');
  return attachments ? `📎 ${attachments} attachment${attachments === 1 ? '' : 's'}` : '';
}
