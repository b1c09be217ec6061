import { z } from 'zod';
import { FEATURE_FLAG_NAMES, type FeatureFlag } from '../rules/feature-flags.ts';
import { PLANS } from '../rules/subscription-status.ts';
import {
  EmailField,
  OriginField,
  optionalText,
  PhoneField,
  pageOf,
  Timestamp,
  TimeZoneField,
  UrlField,
} from './fields.ts';

export const PlanSchema = z.enum(PLANS);

/** Every feature flag of a business (`FEATURE_FLAGS`), on or off. */
export const FeatureFlagsSchema = z.object(
  Object.fromEntries(FEATURE_FLAG_NAMES.map((f) => [f, z.boolean()])) as Record<FeatureFlag, z.ZodBoolean>,
);

/** `PUT /business/mybusiness`: any of these. */
export const UpdateBusinessRequest = z.strictObject({
  name: z.string().trim().min(1).max(200).optional(),
  timezone: TimeZoneField.optional(),
  website: UrlField.nullable().optional(),
  site_origins: z
    .array(OriginField)
    .max(20, 'At most 20 other website addresses')
    .transform((origins) => [...new Set(origins)])
    .optional(),
  industry: optionalText(100).optional(),
});
export type UpdateBusinessRequest = z.input<typeof UpdateBusinessRequest>;

/** The business as its owner edits it (`PUT /business/mybusiness`, the image routes). */
export const Business = z.object({
  id: z.string(),
  name: z.string(),
  owner_user_id: z.string().nullable(),
  timezone: z.string(),
  website: z.string().nullable(),
  /** Origins of the business's other sites (`https://shop.example.com`): where forms may redirect. */
  site_origins: z.array(z.string()),
  industry: z.string().nullable(),
  image: z.string().nullable(),
  plan: PlanSchema,
  trial_end_date: Timestamp.nullable(),
  subscription_past_due: z.boolean(),
  next_invoice_attempt: Timestamp.nullable(),
  message_limit: z.number(),
  messages_sent_today: z.number(),
  verified: z.boolean(),
});
export type BusinessJson = z.input<typeof Business>;

/** `PUT /business/validators/email` (no login: the registration form asks it). */
export const ValidateEmailRequest = z.strictObject({
  email: z.string().trim().min(1, 'Please enter an email').max(1000),
});
export const ValidEmail = z.object({ email: z.string(), valid: z.literal(true) });

const locationId = z.uuid('must be a location id').nullable().optional();

/** The business's own phone numbers (`/business/mybusiness/phone`), each optionally tied to a location. */
export const CreatePhoneRequest = z.strictObject({
  label: optionalText(100).optional(),
  phone: PhoneField,
  location_id: locationId,
});
export const UpdatePhoneRequest = CreatePhoneRequest.partial();
export const BusinessPhone = z.object({
  id: z.string(),
  label: z.string().nullable(),
  phone: z.string(),
  location_id: z.string().nullable(),
  created_at: Timestamp,
});
export const BusinessPhonePage = pageOf(BusinessPhone);

/** The business's own email addresses (`/business/mybusiness/email`). */
export const CreateEmailRequest = z.strictObject({
  label: optionalText(100).optional(),
  email: EmailField,
  location_id: locationId,
});
export const UpdateEmailRequest = CreateEmailRequest.partial();
export const BusinessEmail = z.object({
  id: z.string(),
  label: z.string().nullable(),
  email: z.string(),
  location_id: z.string().nullable(),
  created_at: Timestamp,
});
export const BusinessEmailPage = pageOf(BusinessEmail);

/** `GET /business/mybusiness/features`: what the web app may show for this business. */
export const Features = z.object({
  /** Outbound messages go to the local simulator instead of real providers. */
  sandbox: z.boolean(),
  inbox: z.boolean(),
  locations: z.boolean(),
  subscription_status: z.enum([
    'trial',
    'monthly',
    'annual',
    'payment_failed',
    'trial_expired',
    'monthly_subscription_expired',
    'annual_subscription_expired',
  ]),
  /** The business's feature flags (an administrator turns features off or on per business). */
  flags: FeatureFlagsSchema,
});
export type Features = z.input<typeof Features>;

export const CacheCleared = z.object({ cleared: z.literal(true) });
