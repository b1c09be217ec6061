import { z } from 'zod';
import { PhoneField } from './fields.ts';
import { PathId, Uuid } from './ids.ts';
import { DateFilter } from './inbox.ts';

/** `POST /twilio/generate-voice-token`: the browser's own identity at its selected location. */
export const VoiceTokenRequest = z.strictObject({ identity: z.string().trim().min(1).max(121) });
export const VoiceTokenAnswer = z.object({ identity: z.string(), token: z.string() });

/** `PUT /calls/presence`: at the desk (rung for the location's calls) or away. */
export const PresenceRequest = z.strictObject({ location_id: PathId, available: z.boolean() });
export const PresenceAnswer = z.object({
  location_id: z.string(),
  available: z.boolean(),
  /** When the browser must say so again by, or null when away. */
  until: z.string().nullable(),
});

/** `GET /calls/presence?location_id`: who is available for the location's calls now (the rest are away). */
export const PresenceQuery = z.strictObject({ location_id: PathId });
export const PresenceListAnswer = z.object({ location_id: z.string(), available: z.array(z.string()) });

/** `POST /channels/{id}/calling`: what "Set up calling" made or found at Twilio. */
export const CallingSetUpAnswer = z.object({
  channel_id: z.string(),
  location_id: z.string(),
  twiml_app_sid: z.string(),
  phone_number: z.string(),
});

const Attribution = z.string().trim().min(1).max(200).optional();

/** `GET /calls`: the call history, newest first (spec's phone-call filters, plus direction, status and location). */
export const CallListQuery = z.strictObject({
  start_date: DateFilter.optional(),
  end_date: DateFilter.optional(),
  source: Attribution,
  medium: Attribution,
  campaign: Attribution,
  direction: z.enum(['in', 'out']).optional(),
  /** A Twilio call status, or `missed` (an incoming call nobody answered, voicemails included). */
  status: z
    .enum(['ringing', 'in-progress', 'completed', 'busy', 'no-answer', 'failed', 'canceled', 'missed'])
    .optional(),
  location_id: Uuid.optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(10),
});
export type CallListQuery = z.infer<typeof CallListQuery>;

export const CallItem = z.object({
  id: z.string(),
  direction: z.enum(['in', 'out']),
  from: z.string(),
  to: z.string(),
  status: z.string(),
  /** Seconds, once ended. */
  duration: z.number().nullable(),
  voicemail: z.boolean(),
  answered: z.boolean(),
  created_at: z.string(),
  enquiry_id: z.string(),
  message_id: z.string(),
  location: z.object({ id: z.string(), name: z.string().nullable() }),
  customer: z.object({ id: z.string(), name: z.string().nullable(), phone: z.string().nullable() }),
  user: z.object({ id: z.string(), full_name: z.string() }).nullable(),
  /** How the customer first found the business (their first enquiry's). */
  source: z.string().nullable(),
  medium: z.string().nullable(),
  campaign: z.string().nullable(),
  /** The recording or voicemail, once fetched: an upload of the business. */
  recording: z.object({ id: z.string(), url: z.string() }).nullable(),
});
export type CallItem = z.input<typeof CallItem>;
export const CallPage = z.object({
  items: z.array(CallItem),
  page: z.number(),
  page_size: z.number(),
  total: z.number(),
});
export type CallPageBody = z.input<typeof CallPage>;

/** `POST /user/sip`: the signed-in person's desk phone login at a location; `reset` gives it a new password. */
export const SipRequest = z.strictObject({ location_id: PathId, reset: z.boolean().optional() });

/**
 * A desk phone login. The password only when it was just made or reset: AES-256-GCM with the person's `key`
 * (the login answer's), `nonce` as the IV and their `iv` as additional data; `ciphertext` ends with the tag.
 */
export const SipAnswer = z.object({
  location_id: z.string(),
  server: z.string(),
  username: z.string(),
  password: z.object({ ciphertext: z.string(), nonce: z.string() }).nullable(),
});
export type SipLogin = z.input<typeof SipAnswer>;

/** `GET /user/me/sip-status?location_id`. */
export const SipStatusQuery = z.strictObject({ location_id: PathId });
export const SipStatusAnswer = z.object({
  location_id: z.string(),
  has_credentials: z.boolean(),
  server: z.string().nullable(),
  username: z.string().nullable(),
  /**
   * When the desk phone last took or placed a call (Twilio does not report SIP registrations themselves), so
   * a person can tell their phone is signed in.
   */
  last_call_at: z.string().nullable(),
});

/**
 * `POST /calls/transfer`: the person on a call hands it to a teammate who is available at the location. The
 * call is named by the provider's id the browser knows, or by its own id when the browser was given it.
 */
export const CallTransferRequest = z.strictObject({
  call_sid: z.string().trim().min(1).max(64),
  call_id: z.string().max(64).optional(),
  user_id: PathId,
});
export const CallTransferAnswer = z.object({
  call_id: z.string(),
  user_id: z.string(),
  full_name: z.string(),
});

/** `POST /business/locations/{id}/tracking-numbers`: a campaign's number that rings the location. */
export const TrackingNumberRequest = z.strictObject({
  number: PhoneField,
  source: z.string().trim().min(1, 'Say where the number is advertised, such as google or flyer.').max(200),
  medium: z.string().trim().max(200).optional(),
  campaign: z.string().trim().max(200).optional(),
});
export type TrackingNumberInput = z.input<typeof TrackingNumberRequest>;
export const TrackingNumber = z.object({
  id: z.string(),
  location_id: z.string(),
  number: z.string(),
  source: z.string(),
  medium: z.string().nullable(),
  campaign: z.string().nullable(),
  created_at: z.string(),
});
export type TrackingNumberDto = z.input<typeof TrackingNumber>;
export const TrackingNumberList = z.object({ items: z.array(TrackingNumber) });
export const TrackingNumberParams = z.strictObject({ id: PathId, trackingId: PathId });
