import { z } from 'zod';
import { SUBSCRIPTION_STATUSES } from './billing.ts';
import { FeatureFlagsSchema, PlanSchema } from './business.ts';
import { PlatformNumberSchema } from './channels.ts';
import { PageQuery, pageOf, Timestamp } from './fields.ts';

/** `GET /admin/businesses`: every business, searchable by business name, owner name or email, or id. */
export const AdminBusinessQuery = PageQuery.extend({
  q: z.string().trim().max(200).optional(),
  status: z.enum(SUBSCRIPTION_STATUSES).optional(),
});

export const AdminBusiness = z.object({
  id: z.string(),
  name: z.string(),
  plan: PlanSchema,
  status: z.enum(SUBSCRIPTION_STATUSES),
  trial_end_date: Timestamp.nullable(),
  next_invoice_attempt: Timestamp.nullable(),
  messages_today: z.number(),
  messages_this_month: z.number(),
  message_limit: z.number(),
  owner: z.object({ id: z.string(), full_name: z.string(), email: z.string() }).nullable(),
  created_at: Timestamp,
  verified: z.boolean(),
  regulated: z.boolean(),
  /** The business is on the installation's list of those that may be marked regulated. */
  regulated_allowed: z.boolean(),
  country: z.string().nullable(),
  feature_flags: FeatureFlagsSchema,
  /** Where it signed up from (the IP lookup and tracking values), when it signed up itself. */
  signup_meta: z.record(z.string(), z.unknown()).nullable(),
});
export const AdminBusinessPage = pageOf(AdminBusiness);

/** `PATCH /admin/businesses/{id}`: any of these; each change is written to the audit log. */
export const AdminBusinessPatch = z
  .strictObject({
    trial_end_date: z.iso.datetime({ offset: true, message: 'must be an ISO date and time' }).optional(),
    plan: PlanSchema.optional(),
    message_limit: z.number().int().min(0).max(1_000_000).optional(),
    regulated: z.boolean().optional(),
    verified: z.literal(true).optional(),
    feature_flags: FeatureFlagsSchema.partial().strict().optional(),
  })
  .refine((p) => Object.keys(p).length > 0, 'Say what to change');

export type AdminBusinessPatchInput = z.input<typeof AdminBusinessPatch>;

export const OpenedBusiness = z.object({ token: z.string(), business_id: z.string() });

/** One line of the audit log. */
export const AuditEntry = z.object({
  id: z.string(),
  business_id: z.string().nullable(),
  user: z.object({ id: z.string(), full_name: z.string(), email: z.string() }).nullable(),
  action: z.string(),
  target: z.string().nullable(),
  detail: z.unknown(),
  created_at: Timestamp,
});
export const AuditPage = pageOf(AuditEntry);
export const AuditQuery = PageQuery.extend({ business_id: z.uuid('must be a business id').optional() });

/** `GET /admin/businesses/{id}/numbers`: the numbers it bought through the platform account, held or given back. */
export const AdminNumber = PlatformNumberSchema.extend({ location_name: z.string().nullable() });
export const AdminNumberList = z.object({ items: z.array(AdminNumber) });

/**
 * `PATCH /admin/numbers/{id}`: where the number's carrier registration (US A2P 10DLC) stands, as the operator who
 * submitted it with Twilio reads it there; the owner's Channels page says the same.
 */
export const AdminNumberPatch = z.strictObject({
  registration: z.enum(['required', 'pending', 'approved', 'rejected'], {
    message: 'must be required, pending, approved or rejected',
  }),
});
export type AdminNumberPatchInput = z.input<typeof AdminNumberPatch>;
