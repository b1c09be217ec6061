import { z } from 'zod';
import { MAX_PAGE_SIZE, pageOf, Timestamp } from './fields.ts';
import { Uuid } from './ids.ts';

/** What a location sends when it has written none of its own. */
export const DEFAULT_REVIEW_MESSAGE =
  'Hi {first_name}, thank you for choosing {business_name}! Would you leave us a quick review? It helps others find us.';

export const REVIEW_MESSAGE_MAX_CHARS = 600;

/** `PATCH /business/locations/{id}/update-review-template`: the text (placeholders filled in) and where the link goes. */
export const ReviewTemplateRequest = z
  .strictObject({
    review_message: z.string().trim().max(REVIEW_MESSAGE_MAX_CHARS).nullable().optional(),
    /** The page where customers write a review (Google's review link, or another site's). */
    review_link: z
      .string()
      .trim()
      .max(500)
      .refine((v) => v === '' || /^https:\/\/[^\s]+$/.test(v), 'Give the review link as an https:// address.')
      .transform((v) => (v === '' ? null : v))
      .nullable()
      .optional(),
    /** A Google Business Profile place, chosen from `GET /business/locations/google-locations`. */
    google_place_id: z.string().trim().max(200).nullable().optional(),
  })
  .refine((v) => Object.keys(v).length > 0, 'Nothing to change: send review_message or review_link.');

export const ReviewTemplate = z.object({
  location_id: z.string(),
  review_message: z.string().nullable(),
  review_link: z.string().nullable(),
  google_place_id: z.string().nullable(),
});

/** A location's review reminders and its rules for asking. */
export const ReviewSettings = z.object({
  /** Remind a customer who has not opened the link. */
  enabled: z.boolean(),
  /** Days after the request (then after each reminder) before a reminder. */
  delay_days: z.number().int().min(1).max(30),
  /** At most two reminders. */
  max_reminders: z.number().int().min(0).max(2),
  /** Ask by itself once an invoice is paid, this many hours later. */
  after_payment: z.boolean(),
  after_payment_hours: z.number().int().min(1).max(168),
  /** A customer is asked at most once in this many days. */
  min_days_between: z.number().int().min(1).max(365),
});
export type ReviewSettings = z.infer<typeof ReviewSettings>;
export const DEFAULT_REVIEW_SETTINGS: ReviewSettings = {
  enabled: true,
  delay_days: 3,
  max_reminders: 1,
  after_payment: false,
  after_payment_hours: 24,
  min_days_between: 90,
};
export const ReviewSettingsRequest = ReviewSettings.partial()
  .strict()
  .refine((v) => Object.keys(v).length > 0, 'Nothing to change.');

/** `POST /business/review-requests`: one conversation's customer, or a list of customers at a location. */
export const ReviewRequestRequest = z.union([
  z.strictObject({ enquiry_id: Uuid }),
  z.strictObject({
    customer_ids: z
      .array(Uuid)
      .min(1, 'Choose at least one customer.')
      .max(200, 'At most 200 customers at once.'),
    location_id: Uuid,
  }),
]);
export type ReviewRequestRequest = z.input<typeof ReviewRequestRequest>;

export const ReviewRequestOutcome = z.object({
  sent: z.number(),
  skipped: z.array(z.object({ customer_id: z.string(), name: z.string().nullable(), reason: z.string() })),
});

export const ReviewRequestsQuery = z.strictObject({
  location_id: Uuid.optional(),
  status: z.enum(['sent', 'clicked']).optional(),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  page_size: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(10),
});

export const ReviewRequestRow = z.object({
  id: z.string(),
  customer_id: z.string(),
  customer_name: z.string().nullable(),
  enquiry_id: z.string().nullable(),
  location_id: z.string().nullable(),
  location_name: z.string().nullable(),
  status: z.enum(['sent', 'clicked', 'failed']),
  reminders_sent: z.number(),
  next_reminder_at: Timestamp.nullable(),
  reminders_stopped: z.string().nullable(),
  sent_at: Timestamp,
  clicked_at: Timestamp.nullable(),
});
export type ReviewRequestJson = z.input<typeof ReviewRequestRow>;
export const ReviewRequestPage = pageOf(ReviewRequestRow).extend({
  /** Over the whole filter, not the page. */
  stats: z.object({ sent: z.number(), clicked: z.number(), rate: z.number() }),
});

/** `GET /business/locations/google-locations`: the places to link, from Google, the sandbox, or none. */
export const GoogleLocations = z.object({
  source: z.enum(['google', 'sandbox', 'none']),
  /** With Google set up: whether this business has connected its Business Profile (`GET /business/google/connect-link`). */
  connected: z.boolean(),
  items: z.array(
    z.object({
      place_id: z.string(),
      title: z.string(),
      address: z.string().nullable(),
      review_link: z.string(),
    }),
  ),
});

export const GoogleConnectLink = z.object({ url: z.string() });
