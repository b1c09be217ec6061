import { z } from 'zod';
import { defineJob } from '../define.ts';

/** A file a provider's webhook pointed at, as plain data; the job works out the credentials when it runs. */
export const MediaRef = z.object({
  /** Where the file is (Twilio, Messenger, Instagram, RCS; WhatsApp media given by URL). */
  url: z.string().optional(),
  /** WhatsApp: the media id whose download URL the Graph API gives. */
  media_id: z.string().optional(),
  content_type: z.string().optional(),
  name: z.string().optional(),
});
export type MediaRef = z.infer<typeof MediaRef>;

/** Downloads an inbound message's media after the webhook has been answered, and attaches it. */
export const inboundMedia = defineJob({
  name: 'inbound.media',
  payload: z.object({ message_id: z.uuid(), account_id: z.uuid(), media: z.array(MediaRef) }),
  retry: { retryLimit: 4, retryDelay: 10, retryBackoff: true },
  // Its worker heartbeats: a download a stopped server was making is taken over in seconds, not at expiry.
  options: { heartbeatSeconds: 10 },
});
export type MediaJob = z.infer<typeof inboundMedia.payload>;
