import { z } from 'zod';
import { Uuid } from './ids.ts';

export const ENQUIRY_STATUSES = ['open', 'closed'] as const;
export type EnquiryStatus = (typeof ENQUIRY_STATUSES)[number];
export const ENQUIRY_VIEWS = ['all', 'mine', 'unassigned'] as const;
export type EnquiryView = (typeof ENQUIRY_VIEWS)[number];
export const MESSAGE_STATUSES = ['queued', 'sent', 'delivered', 'read', 'failed', 'received'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

export type Attachment = { id: string; name: string; content_type: string; size: number; url: string };

export type LocationCounts = {
  location_id: string;
  assigned_count_open: number;
  assigned_count_closed: number;
  unassigned_count_open: number;
  unassigned_count_closed: number;
};

/** One row of the enquiry list. */
export type EnquiryRow = {
  id: string;
  seen: boolean;
  customer: { name: string | null; phone: string | null; email: string | null };
  customer_id: string;
  location_id: string;
  updated_at: string;
  last_message_at: string;
  title: string | null;
  channel: string;
  status: EnquiryStatus;
  assigned_to: string | null;
  last_message: string | null;
  source: string | null;
  medium: string | null;
  campaign: string | null;
};

export type MessageDto = {
  id: string;
  enquiry_id: string;
  customer_id: string;
  channel: string;
  direction: 'in' | 'out';
  message: string;
  team_user_id: string | null;
  team_user: { full_name: string; avatar: string | null } | null;
  meta: { subject?: string; from?: string; to?: string; [key: string]: unknown };
  attachments: Attachment[];
  status: MessageStatus;
  error: string | null;
  client_id: string | null;
  created_at: string;
  updated_at: string;
  summary: string | null;
  summary_details: unknown;
  call_location_details: unknown;
  call_summary_status: string | null;
  call_transcription_status: string | null;
  ai_interaction: 'ai_generated' | 'ai_rewritten' | null;
  ai_original: string | null;
  user_modified: boolean | null;
};

export type Viewer = { user_id: string; full_name: string };

/** Events the server sends; typed for Socket.IO on both ends. */
export type ServerToClientEvents = {
  'enquiry.created': (enquiry: EnquiryRow) => void;
  'enquiry.updated': (enquiry: EnquiryRow) => void;
  'message.created': (message: MessageDto) => void;
  'message.updated': (message: MessageDto) => void;
  'counts.updated': (counts: LocationCounts) => void;
  typing: (event: { enquiry_id: string; user_id: string; full_name: string; typing: boolean }) => void;
  viewing: (event: { enquiry_id: string; viewers: Viewer[] }) => void;
};

/** Events a staff client sends. */
export type ClientToServerEvents = {
  'enquiry.open': (enquiryId: string, ack?: (result: { ok: boolean; message?: string }) => void) => void;
  'enquiry.close': (enquiryId: string) => void;
  typing: (event: { enquiry_id: string; typing: boolean }) => void;
};

const DATE_FILTER = /^(\d{4})-(\d{2})-(\d{2})(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * A day ('2026-11-24') or an ISO timestamp with a real calendar date in the years 1900–2999: anything else
 * would be read by the database as another day, or not at all.
 */
export const DateFilter = z
  .string()
  .max(40)
  .refine((value) => {
    const m = DATE_FILTER.exec(value);
    if (!m) return false;
    const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
    const date = new Date(Date.UTC(year, month - 1, day));
    return (
      year >= 1900 &&
      year <= 2999 &&
      date.getUTCMonth() === month - 1 &&
      date.getUTCDate() === day &&
      !Number.isNaN(new Date(value).getTime())
    );
  }, 'must be a date such as 2026-11-24 (or an ISO timestamp) between the years 1900 and 2999');

const csv = <T extends z.ZodType>(item: T) =>
  z.preprocess((v) => (typeof v === 'string' ? v.split(',').filter(Boolean) : v), z.array(item).max(20));

export const EnquiryListQuery = z.strictObject({
  status: z.enum(ENQUIRY_STATUSES).default('open'),
  view: z.enum(ENQUIRY_VIEWS).default('all'),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(10),
  start_date: DateFilter.optional(),
  end_date: DateFilter.optional(),
  channels: csv(z.string().min(1).max(40)).optional(),
  assigned_to: Uuid.optional(),
  source: z.string().max(200).optional(),
  medium: z.string().max(200).optional(),
  q: z.string().trim().max(200).optional(),
  location_id: Uuid.optional(),
});
export type EnquiryListQuery = z.infer<typeof EnquiryListQuery>;

export const EnquiryPatchRequest = z
  .strictObject({
    status: z.enum(ENQUIRY_STATUSES).optional(),
    assigned_to: Uuid.nullable().optional(),
    title: z.string().trim().max(200).nullable().optional(),
  })
  .refine((v) => Object.keys(v).length > 0, 'Nothing to change: send status, assigned_to or title.');

export const SendMessageRequest = z.strictObject({
  message: z.string().max(10_000).default(''),
  attachments: z.array(Uuid).max(10).default([]),
  meta: z.strictObject({ subject: z.string().max(500).optional() }).default({}),
  client_id: z.string().min(1).max(100).optional(),
  ai_interaction: z.enum(['ai_generated', 'ai_rewritten']).optional(),
  ai_original: z.string().max(10_000).optional(),
});
export type SendMessageRequest = z.infer<typeof SendMessageRequest>;

export const NewConversationRequest = SendMessageRequest.extend({
  channel: z.enum(['sms', 'mms', 'whatsapp', 'email', 'google_rcs']),
  phone: z.string().trim().max(40).optional(),
  email: z.string().trim().max(320).optional(),
  name: z.string().trim().max(200).optional(),
  location_id: Uuid.optional(),
});
export type NewConversationRequest = z.infer<typeof NewConversationRequest>;

export const DraftRequest = z.strictObject({
  message: z.string().max(10_000).default(''),
  meta: z.strictObject({ subject: z.string().max(500).optional() }).default({}),
  attachments: z.array(Uuid).max(10).default([]),
  ai_interaction: z.enum(['ai_generated', 'ai_rewritten']).nullable().optional(),
  ai_original: z.string().max(10_000).nullable().optional(),
});
