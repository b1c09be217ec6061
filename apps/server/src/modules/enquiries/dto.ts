import type { customers, enquiries } from '@switchboard/db';
import type { EnquiryRow } from '@switchboard/shared';

type EnquiryRecord = typeof enquiries.$inferSelect;
type CustomerRecord = Pick<typeof customers.$inferSelect, 'name' | 'phone' | 'email'>;

const iso = (d: Date | string) => (d instanceof Date ? d.toISOString() : new Date(d).toISOString());

export function toEnquiryRow(e: EnquiryRecord, c: CustomerRecord): EnquiryRow {
  return {
    id: e.id,
    seen: e.seen,
    customer: { name: c.name, phone: c.phone, email: c.email },
    customer_id: e.customer_id,
    location_id: e.location_id,
    updated_at: iso(e.updated_at),
    last_message_at: iso(e.last_message_at),
    title: e.title,
    channel: e.channel,
    status: e.status,
    assigned_to: e.assigned_to,
    last_message: e.last_message_preview,
    source: e.source,
    medium: e.medium,
    campaign: e.campaign,
    snoozed_until: e.snoozed_until ? iso(e.snoozed_until) : null,
    labels: e.labels ?? [],
    needs_person: e.ai_handoff_at !== null && e.ai_handoff_at !== undefined,
    ai_suggestion: suggestionOf(e.meta),
  };
}

/** The assistant's suggestion kept on the enquiry, in the shape rows carry it (anything else is none). */
function suggestionOf(meta: Record<string, unknown> | null | undefined): EnquiryRow['ai_suggestion'] {
  const s = meta?.ai_suggestion as EnquiryRow['ai_suggestion'] | undefined;
  if (!s || typeof s.message !== 'string' || typeof s.reply_to !== 'string') return null;
  return {
    action: s.action,
    message: s.message,
    faq_ids: s.faq_ids ?? [],
    confidence: s.confidence ?? 0,
    sources: s.sources ?? [],
    reply_to: s.reply_to,
  };
}
