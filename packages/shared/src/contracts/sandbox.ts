import { z } from 'zod';
import { Uuid } from './ids.ts';

/** The channels a sandbox customer can write on (`POST /sandbox/inbound`, the simulator). */
export const SANDBOX_CHANNELS = [
  'sms',
  'mms',
  'whatsapp',
  'facebook',
  'instagram',
  'google_rcs',
  'email',
  'web_form',
  'contact_form',
  'widget',
] as const;
export type SandboxChannel = (typeof SANDBOX_CHANNELS)[number];

/** How the customer is known on each channel: a phone, an email address or the network's own id. */
export type IdentityKind = 'phone' | 'email' | 'external_id';

export function identityOf(channel: SandboxChannel): IdentityKind {
  switch (channel) {
    case 'email':
    case 'web_form':
    case 'contact_form':
      return 'email';
    case 'facebook':
    case 'instagram':
    case 'widget':
      return 'external_id';
    case 'sms':
    case 'mms':
    case 'whatsapp':
    case 'google_rcs':
      return 'phone';
  }
}

/** Sandbox mode only: a message "from a customer", ingested exactly as a provider webhook's would be. */
export const SandboxInboundRequest = z.strictObject({
  channel: z.enum(SANDBOX_CHANNELS),
  location_id: Uuid,
  from: z.strictObject({
    phone: z.string().trim().max(40).optional(),
    email: z.string().trim().max(320).optional(),
    name: z.string().trim().max(200).optional(),
    external_id: z.string().trim().max(200).optional(),
  }),
  message: z.string().max(10_000),
  subject: z.string().max(500).optional(),
  source: z.string().max(200).optional(),
  medium: z.string().max(200).optional(),
  campaign: z.string().max(200).optional(),
});
export type SandboxInbound = z.input<typeof SandboxInboundRequest>;

/**
 * Sandbox mode only: which conversation a simulated customer has at a location on a channel (the one their next
 * message would join, else their latest), so the simulator shows what the business sent them (a reply, a
 * missed call's text) even before the simulator wrote as them.
 */
export const SandboxConversationQuery = z.strictObject({
  location_id: Uuid,
  channel: z.enum(SANDBOX_CHANNELS),
  identity: z.string().trim().min(1, 'Give the customer a phone number, email address or id.').max(320),
});

/** The conversation, or null when the customer has none there yet. */
export const SandboxConversationSchema = z.object({ enquiry_id: z.string().nullable() });
