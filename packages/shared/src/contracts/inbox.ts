import { z } from 'zod';
import { Timestamp } from './fields.ts';
import { Uuid } from './ids.ts';
import type { InvoiceJson } from './invoices.ts';
import type { PhoneClientEvents, PhoneServerEvents } from './phone.ts';

export const ENQUIRY_STATUSES = ['open', 'closed'] as const;
export type EnquiryStatus = (typeof ENQUIRY_STATUSES)[number];
export const ENQUIRY_VIEWS = ['all', 'mine', 'unassigned'] as const;
export type EnquiryView = (typeof ENQUIRY_VIEWS)[number];
export const MESSAGE_STATUSES = ['queued', 'sent', 'delivered', 'read', 'failed', 'received'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/** A file of a message or draft, as stored and as answered. */
export const AttachmentSchema = z.object({
  id: z.string(),
  name: z.string(),
  content_type: z.string(),
  size: z.number(),
  url: z.string(),
});
export type Attachment = z.input<typeof AttachmentSchema>;

/** A location's four enquiry counters (`GET /enquiries/counts`, the `counts.updated` event). */
export const LocationCountsSchema = z.object({
  location_id: z.string(),
  assigned_count_open: z.number(),
  assigned_count_closed: z.number(),
  unassigned_count_open: z.number(),
  unassigned_count_closed: z.number(),
});
export type LocationCounts = z.input<typeof LocationCountsSchema>;

/** One row of the enquiry list (also `GET`/`PATCH /enquiries/{id}` and the enquiry events). */
export const EnquiryRowSchema = z.object({
  id: z.string(),
  seen: z.boolean(),
  customer: z.object({
    name: z.string().nullable(),
    phone: z.string().nullable(),
    email: z.string().nullable(),
  }),
  customer_id: z.string(),
  location_id: z.string(),
  updated_at: z.string(),
  last_message_at: z.string(),
  title: z.string().nullable(),
  channel: z.string(),
  status: z.enum(ENQUIRY_STATUSES),
  assigned_to: z.string().nullable(),
  last_message: z.string().nullable(),
  source: z.string().nullable(),
  medium: z.string().nullable(),
  campaign: z.string().nullable(),
  /** Set while snoozed: hidden from the open list until then, back (and its assignee told) at that time. */
  snoozed_until: z.string().nullable(),
  /** Ids of the business's labels on it. */
  labels: z.array(z.string()),
  /** The assistant handed it to a person and stays silent in it until staff hand it back. */
  needs_person: z.boolean(),
  /** The assistant's suggested reply to the customer's last message (auto-reply `suggest`), for staff to use. */
  ai_suggestion: z
    .object({
      action: z.enum(['answer', 'handoff', 'ask']),
      message: z.string(),
      faq_ids: z.array(z.string()),
      confidence: z.number(),
      sources: z.array(
        z.object({ kind: z.enum(['faq', 'section', 'flow']), id: z.string(), title: z.string() }),
      ),
      reply_to: z.string(),
    })
    .nullable(),
});
export type EnquiryRow = z.input<typeof EnquiryRowSchema>;

/** `GET /enquiries`: a page of rows; total from the location counters when no filter narrows the list. */
export const EnquiryPageSchema = z.object({
  items: z.array(EnquiryRowSchema),
  page: z.number(),
  page_size: z.number(),
  total: z.number().nullable(),
  has_more: z.boolean(),
});
export type EnquiryPage = z.input<typeof EnquiryPageSchema>;

const AiInteraction = z.enum(['ai_generated', 'ai_rewritten']);

/** A message as every route and event answers it. */
/** `meta.auto` of a message the assistant sent as the business (its other automatic messages name theirs). */
export const ASSISTANT_AUTO = 'assistant';

export const MessageSchema = z.object({
  id: z.string(),
  enquiry_id: z.string(),
  customer_id: z.string(),
  channel: z.string(),
  direction: z.enum(['in', 'out']),
  message: z.string(),
  team_user_id: z.string().nullable(),
  team_user: z.object({ full_name: z.string(), avatar: z.string().nullable() }).nullable(),
  /** Subject, from and to, and what each provider adds (kept whole). */
  meta: z.record(z.string(), z.unknown()),
  attachments: z.array(AttachmentSchema),
  status: z.enum(MESSAGE_STATUSES),
  error: z.string().nullable(),
  client_id: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  summary: z.string().nullable(),
  summary_details: z.unknown(),
  call_location_details: z.unknown(),
  call_summary_status: z.string().nullable(),
  call_transcription_status: z.string().nullable(),
  ai_interaction: AiInteraction.nullable(),
  ai_original: z.string().nullable(),
  user_modified: z.boolean().nullable(),
});
export type MessageDto = Omit<z.input<typeof MessageSchema>, 'meta'> & {
  meta: { subject?: string; from?: string; to?: string; [key: string]: unknown };
};

/** `GET /enquiries/{id}/messages`: newest first. */
export const MessagePageSchema = z.object({
  items: z.array(MessageSchema),
  page: z.number(),
  page_size: z.number(),
  has_more: z.boolean(),
});
export type MessagePage = { items: MessageDto[]; page: number; page_size: number; has_more: boolean };

/** `POST /messages` and `POST /sandbox/inbound`: the conversation the message is in, and the message. */
export const ConversationMessageSchema = z.object({ enquiry_id: z.string(), message: MessageSchema });

/** The signed-in person's unsent reply in an enquiry (`/enquiries/{id}/draft`); null when there is none. */
export const DraftSchema = z.object({
  enquiry_id: z.string(),
  message: z.string(),
  meta: z.record(z.string(), z.unknown()),
  attachments: z.array(AttachmentSchema),
  ai_interaction: AiInteraction.nullable(),
  ai_original: z.string().nullable(),
  updated_at: Timestamp,
});
export type Draft = Omit<z.input<typeof DraftSchema>, 'meta'> & { meta: { subject?: string } };

/** `GET /enquiries/unread`: per location of the business, how many open enquiries have news not yet seen. */
export const UnreadCountsSchema = z.object({
  items: z.array(z.object({ location_id: z.string(), unread: z.number() })),
});
export type UnreadCounts = z.input<typeof UnreadCountsSchema>;

/** `PUT /enquiries/{id}/seen`: no body marks it seen. */
export const SeenRequest = z.strictObject({ seen: z.boolean().default(true) }).nullish();
export const CountsQuery = z.strictObject({
  location_id: Uuid.optional(),
  /** Every location of the business together (`location_id` of the answer is then 'all'). */
  all_locations: z.enum(['true']).optional(),
});
export const MessagePaging = z.strictObject({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(10),
});
export const DraftDeleted = z.object({ deleted: z.literal(true) });

export type Viewer = { user_id: string; full_name: string };

/** Something one person is told live, wherever they are in the app (a toast linking to the enquiry). */
export type StaffNotification = {
  kind: 'reopened' | 'mention' | 'woke' | 'handoff';
  enquiry_id: string;
  location_id: string;
  title: string;
  body: string;
};

/** A call as staff screens hear of it live (`call.incoming` as it starts ringing, `call.updated` after). */
export type CallEvent = {
  id: string;
  enquiry_id: string;
  location_id: string;
  direction: 'in' | 'out';
  from: string;
  to: string;
  /** Twilio's status names: ringing, in-progress, completed, busy, no-answer, failed, canceled… */
  status: string;
  voicemail: boolean;
  /** The customer's name when they are known. */
  caller_name: string | null;
  /** Who answered (in) or placed (out) it. */
  user: { id: string; full_name: string } | null;
};

/** Events the server sends; typed for Socket.IO on both ends. */
export type ServerToClientEvents = PhoneServerEvents & {
  'enquiry.created': (enquiry: EnquiryRow) => void;
  'enquiry.updated': (enquiry: EnquiryRow) => void;
  'message.created': (message: MessageDto) => void;
  'message.updated': (message: MessageDto) => void;
  'counts.updated': (counts: LocationCounts) => void;
  typing: (event: { enquiry_id: string; user_id: string; full_name: string; typing: boolean }) => void;
  viewing: (event: { enquiry_id: string; viewers: Viewer[] }) => void;
  notification: (notification: StaffNotification) => void;
  'note.created': (note: Note) => void;
  /** The owner made, renamed, recoloured or deleted a label: screens read the business's labels again. */
  'labels.changed': () => void;
  /** The business's account changed (email confirmed, plan, trial, payment, features): read `/user/me` again. */
  'account.changed': () => void;
  /** An invoice was sent, viewed, paid, refunded, voided or changed. */
  'invoice.updated': (invoice: InvoiceJson) => void;
  /** A customer is ringing the location. */
  'call.incoming': (call: CallEvent) => void;
  'call.updated': (call: CallEvent) => void;
};

/** Events a staff client sends. */
export type ClientToServerEvents = PhoneClientEvents & {
  'enquiry.open': (enquiryId: string, ack?: (result: { ok: boolean; message?: string }) => void) => void;
  'enquiry.close': (enquiryId: string) => void;
  typing: (event: { enquiry_id: string; typing: boolean }) => void;
  /** The tab is in sight or not: a person with a tab in sight is not pushed what it already shows. */
  presence: (event: { visible: boolean }) => void;
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
  }, 'Give a date such as 2026-11-24 (or an ISO timestamp) between the years 1900 and 2999');

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
  /** Open enquiries only: `true` lists the snoozed ones (otherwise they are left out until they wake). */
  snoozed: z.enum(['true', 'false']).optional(),
  /** Only enquiries with this label. */
  label: Uuid.optional(),
  /** Every location of the business at once (then `location_id` is ignored, and `total` is not counted). */
  all_locations: z.enum(['true']).optional(),
});
export type EnquiryListQuery = z.infer<typeof EnquiryListQuery>;

export const EnquiryPatchRequest = z
  .strictObject({
    status: z.enum(ENQUIRY_STATUSES).optional(),
    assigned_to: Uuid.nullable().optional(),
    title: z.string().trim().max(200).nullable().optional(),
    snoozed_until: z.iso.datetime({ offset: true }).nullable().optional(),
    labels: z.array(Uuid).max(10).optional(),
  })
  .refine(
    (v) => Object.keys(v).length > 0,
    'Nothing to change: send status, assigned_to, title, snoozed_until or labels.',
  );

export const SendMessageRequest = z.strictObject({
  message: z.string().max(10_000).default(''),
  attachments: z.array(Uuid).max(10).default([]),
  meta: z.strictObject({ subject: z.string().max(500).optional() }).default({}),
  client_id: z.string().min(1).max(100).optional(),
  ai_interaction: z.enum(['ai_generated', 'ai_rewritten']).optional(),
  ai_original: z.string().max(10_000).optional(),
  /**
   * The newest message of the thread the sender had in front of them while writing (null: the thread showed
   * none). When a teammate or the assistant answered the customer after it, the reply is not stored: the
   * answer is 409 `replied_meanwhile` (`SendCollisionSchema`) naming who answered, when, and what. Left out,
   * nothing is checked (clients written before this field keep working).
   */
  seen_message_id: Uuid.nullable().optional(),
  /** Sends even though someone else answered since `seen_message_id` (the person read that reply first). */
  send_anyway: z.boolean().optional(),
});
export type SendMessageRequest = z.infer<typeof SendMessageRequest>;

/**
 * The 409 answer of `POST /enquiries/{id}/messages` when someone else answered the customer after the message
 * the sender last saw: the newest such reply. Replies by teammates and by the assistant count; the business's
 * automatic messages (a missed call's text, invoice and review reminders) and the sender's own do not.
 */
export const SendCollisionSchema = z.object({
  code: z.literal('replied_meanwhile'),
  message: z.string(),
  reply: z.object({
    id: z.string(),
    message: z.string(),
    attachments: z.number(),
    created_at: z.string(),
    by: z.object({ kind: z.enum(['teammate', 'assistant']), full_name: z.string().nullable() }),
  }),
});
export type SendCollision = z.input<typeof SendCollisionSchema>;

export const NewConversationRequest = SendMessageRequest.omit({
  seen_message_id: true,
  send_anyway: true,
}).extend({
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

/**
 * A private note in a thread: staff only, never sent. `mentions` are the teammates it names (told live). An
 * `event` is one the product wrote about something that happened in the conversation (an invoice paid).
 */
export const NoteSchema = z.object({
  id: z.string(),
  enquiry_id: z.string(),
  kind: z.enum(['note', 'event']),
  user_id: z.string().nullable(),
  author: z.object({ full_name: z.string(), avatar: z.string().nullable() }).nullable(),
  body: z.string(),
  mentions: z.array(z.string()),
  created_at: z.string(),
});
export type Note = z.input<typeof NoteSchema>;
export const NoteListSchema = z.object({ items: z.array(NoteSchema) });

/** One note that mentions the signed-in person (`GET /mentions`), with its enquiry, newest first. */
export const MentionSchema = z.object({
  note: NoteSchema,
  enquiry: EnquiryRowSchema,
  /** The person has opened it since (from Mentions, or the enquiry itself). */
  read: z.boolean(),
});
export type Mention = z.input<typeof MentionSchema>;
export const MentionListSchema = z.object({ items: z.array(MentionSchema), unread: z.number() });
export type MentionList = z.input<typeof MentionListSchema>;
export const MentionsReadSchema = z.object({ unread: z.number() });
export const NOTE_MAX_CHARS = 5000;
export const NoteRequest = z.strictObject({
  body: z.string().trim().min(1, 'Write the note first.').max(NOTE_MAX_CHARS),
  mentions: z.array(Uuid).max(20).default([]),
});
export type NoteRequest = z.infer<typeof NoteRequest>;

export const LABEL_COLOUR_PATTERN = /^#[0-9a-fA-F]{6}$/;

/** A label the owner defines for enquiries (`/labels`). */
export const LabelSchema = z.object({ id: z.string(), name: z.string(), colour: z.string() });
export type Label = z.input<typeof LabelSchema>;
export const LabelListSchema = z.object({ items: z.array(LabelSchema) });
export const LabelRequest = z.strictObject({
  name: z.string().trim().min(1, 'Give the label a name.').max(40),
  colour: z.string().regex(LABEL_COLOUR_PATTERN, 'must be a colour such as #1E75FF'),
});
export type LabelRequest = z.infer<typeof LabelRequest>;

/** `POST /enquiries/bulk`: one change to several enquiries at once (selected in the list). */
export const EnquiryBulkRequest = z.strictObject({
  ids: z.array(Uuid).min(1).max(100),
  patch: z
    .strictObject({
      status: z.enum(ENQUIRY_STATUSES).optional(),
      assigned_to: Uuid.nullable().optional(),
      add_labels: z.array(Uuid).max(10).optional(),
      remove_labels: z.array(Uuid).max(10).optional(),
    })
    .refine(
      (v) => Object.keys(v).length > 0,
      'Nothing to change: send status, assigned_to, add_labels or remove_labels.',
    ),
});
export type EnquiryBulkRequest = z.infer<typeof EnquiryBulkRequest>;
export const EnquiryBulkAnswer = z.object({ items: z.array(EnquiryRowSchema) });
