import { z } from 'zod';

/** The call ringtones the app ships (made by the browser, nothing to download). */
export const CALL_RINGTONES = ['classic', 'double', 'chime'] as const;
export type CallRingtone = (typeof CALL_RINGTONES)[number];

/** A notification ringtone: a shipped sound, an uploaded one, or null for the default long pop. */
export const NotificationRingtone = z
  .string()
  .max(200)
  .refine(
    (v) => (NOTIFICATION_SOUNDS as readonly string[]).includes(v) || UPLOADED_SOUND.test(v),
    'Choose one of the sounds offered, or upload one',
  )
  .nullable();

/** The longest wait, in minutes, an owner can choose for the unanswered-enquiries email (a day). */
export const DIGEST_MINUTES_MAX = 1440;

import { NOTIFICATION_SOUNDS, UPLOADED_SOUND } from '../constants.ts';
import { FeatureFlagsSchema } from './business.ts';
import { Timestamp } from './fields.ts';

/** A location as `GET /user/me` lists it. */
export const MeLocation = z.object({
  id: z.string(),
  name: z.string().nullable(),
  address: z.string().nullable(),
  precedence: z.number(),
  phone_number: z.string().nullable(),
  email_address: z.string().nullable(),
  selected: z.boolean(),
  assigned_count_open: z.number(),
  assigned_count_closed: z.number(),
  unassigned_count_open: z.number(),
  unassigned_count_closed: z.number(),
});
export type MeLocation = z.input<typeof MeLocation>;

/** A business as `GET /user/me` lists it, with the user's role in it. */
export const MeBusiness = z.object({
  id: z.string(),
  name: z.string(),
  owner_user_id: z.string().nullable(),
  role: z.enum(['owner', 'staff']).nullable(),
  is_owner: z.boolean(),
  image: z.string().nullable(),
  timezone: z.string(),
  /** ISO 3166 country code: dates, amounts and phone numbers are written as there. */
  country: z.string().nullable(),
  website: z.string().nullable(),
  /** Origins of the business's other sites, where its web forms may send visitors back to. */
  site_origins: z.array(z.string()),
  industry: z.string().nullable(),
  plan: z.string(),
  subscription: z.string(),
  trial_end_date: Timestamp.nullable(),
  subscription_past_due: z.boolean(),
  next_invoice_attempt: Timestamp.nullable(),
  messages_sent_today: z.number(),
  message_limit: z.number(),
  verified: z.boolean(),
  /** The code of the business's referral link, `/signup?ref={code}`. */
  referral_code: z.string().nullable(),
  regulated: z.boolean(),
  selected: z.boolean(),
  locations: z.array(MeLocation),
});
export type MeBusiness = z.input<typeof MeBusiness>;

/** `GET /user/me`: the signed-in user, every business they belong to and its locations, the selected ones flagged. */
export const UserMe = z.object({
  id: z.string(),
  email: z.string(),
  full_name: z.string(),
  avatar: z.string().nullable(),
  super_admin: z.boolean(),
  enable_notifications: z.boolean(),
  enable_enquiry_notification: z.boolean(),
  enable_message_notification: z.boolean(),
  ringtone_enquiry: z.string().nullable(),
  ringtone_message: z.string().nullable(),
  /** How the browser rings for a phone call: one of CALL_RINGTONES. */
  ringtone_call: z.enum(CALL_RINGTONES),
  /** Owners: email me the enquiries no one has answered for this many minutes (null: off). */
  digest_minutes: z.number().nullable(),
  send_on_enter: z.boolean(),
  assign_on_reply: z.boolean(),
  /** The selected business's assistant: whether its owner has finished setting it up. */
  ai_info: z.object({ onboarding_completed: z.boolean() }),
  /** The selected business's feature flags. */
  feature_flags: FeatureFlagsSchema,
  /** The person's mobile, and whether it was confirmed by a texted code. */
  mobile: z.string().nullable(),
  mobile_verified: z.boolean(),
  businesses: z.array(MeBusiness),
});
export type UserMe = z.input<typeof UserMe>;

/** `PATCH /user/me`: any of these; answers the whole of `GET /user/me`. */
export const UpdateMeRequest = z.strictObject({
  full_name: z.string().trim().min(1).max(200).optional(),
  enable_notifications: z.boolean().optional(),
  enable_enquiry_notification: z.boolean().optional(),
  enable_message_notification: z.boolean().optional(),
  ringtone_enquiry: NotificationRingtone.optional(),
  ringtone_message: NotificationRingtone.optional(),
  ringtone_call: z.enum(CALL_RINGTONES).optional(),
  digest_minutes: z
    .number()
    .int('The wait is a whole number of minutes')
    .min(5, 'The shortest wait is 5 minutes')
    .max(DIGEST_MINUTES_MAX, 'The longest wait is a day (1440 minutes)')
    .nullable()
    .optional(),
  send_on_enter: z.boolean().optional(),
  assign_on_reply: z.boolean().optional(),
});
export type UpdateMeRequest = z.input<typeof UpdateMeRequest>;
