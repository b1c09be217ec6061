import { z } from 'zod';
import { PathId } from './ids.ts';

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

/** `POST /channels/{id}/calling`: what "Set up calling" made or found at Twilio. */
export const CallingSetUpAnswer = z.object({
  channel_id: z.string(),
  location_id: z.string(),
  twiml_app_sid: z.string(),
  phone_number: z.string(),
});
