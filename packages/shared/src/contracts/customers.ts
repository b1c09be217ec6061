import { z } from 'zod';
import { ENQUIRY_STATUSES } from './inbox.ts';

/** One of a customer's enquiries, as their profile lists them (newest first), in any channel or location. */
export const CustomerEnquirySchema = z.object({
  id: z.string(),
  channel: z.string(),
  status: z.enum(ENQUIRY_STATUSES),
  location_id: z.string(),
  location_name: z.string().nullable(),
  title: z.string().nullable(),
  assigned_to: z.string().nullable(),
  created_at: z.string(),
  last_message_at: z.string(),
  last_message: z.string().nullable(),
});
export type CustomerEnquiry = z.input<typeof CustomerEnquirySchema>;

/** A customer as the list shows them. */
export const CustomerSummarySchema = z.object({
  id: z.string(),
  name: z.string().nullable(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  sms_opted_out: z.boolean(),
  created_at: z.string(),
  last_message_at: z.string().nullable(),
  enquiry_count: z.number(),
});
export type CustomerSummary = z.input<typeof CustomerSummarySchema>;

/** A note staff keep about a customer (never sent), newest first. */
export const CustomerNoteSchema = z.object({
  id: z.string(),
  body: z.string(),
  /** Who wrote it; null once they are no longer a teammate. */
  user_id: z.string().nullable(),
  author: z.string().nullable(),
  created_at: z.string(),
});
export type CustomerNote = z.input<typeof CustomerNoteSchema>;

export const CUSTOMER_NOTE_MAX_CHARS = 5000;

/** `POST /customers/{id}/notes`. */
export const CustomerNoteRequest = z.strictObject({
  body: z
    .string()
    .trim()
    .min(1, 'Write the note first.')
    .max(CUSTOMER_NOTE_MAX_CHARS, `A note can be at most ${CUSTOMER_NOTE_MAX_CHARS} characters.`),
});

/** `GET /customers/{id}`: the person, how they first found the business, and every enquiry of theirs. */
export const CustomerSchema = CustomerSummarySchema.extend({
  /** The business's labels on the person (ids; `GET /labels` names them). */
  labels: z.array(z.string()),
  notes: z.array(CustomerNoteSchema),
  /** The ids each channel knows them by (Messenger, Instagram, WhatsApp, the website chat…). */
  external_ids: z.record(z.string(), z.string()),
  first_seen: z
    .object({
      channel: z.string(),
      source: z.string().nullable(),
      medium: z.string().nullable(),
      campaign: z.string().nullable(),
      /** The website page a chat began on. */
      landing_page: z.string().nullable(),
      at: z.string(),
    })
    .nullable(),
  enquiries: z.array(CustomerEnquirySchema),
});
export type Customer = z.input<typeof CustomerSchema>;

export const CustomerPageSchema = z.object({
  items: z.array(CustomerSummarySchema),
  page: z.number(),
  page_size: z.number(),
  has_more: z.boolean(),
});
export type CustomerPage = z.input<typeof CustomerPageSchema>;

export const CustomerListQuery = z.strictObject({
  q: z.string().trim().max(200).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(25),
});
export type CustomerListQuery = z.infer<typeof CustomerListQuery>;

/** `PATCH /customers/{id}`: name, phone, email or labels; null clears a field (a customer keeps one way to reach them). */
export const CustomerPatchRequest = z
  .strictObject({
    name: z.string().trim().min(1).max(200).nullable().optional(),
    phone: z.string().trim().min(1).max(40).nullable().optional(),
    email: z.email().max(320).nullable().optional(),
    /** The whole set of the person's labels. */
    labels: z.array(z.uuid()).max(50).optional(),
  })
  .refine((v) => Object.keys(v).length > 0, 'Nothing to change: send name, phone, email or labels.');
export type CustomerPatchRequest = z.infer<typeof CustomerPatchRequest>;

/** `POST /customers/{id}/merge`: the other record of the same person, folded into this one and removed. */
export const CustomerMergeRequest = z.strictObject({ other_id: z.uuid() });
