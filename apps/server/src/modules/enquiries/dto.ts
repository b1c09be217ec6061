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
  };
}
