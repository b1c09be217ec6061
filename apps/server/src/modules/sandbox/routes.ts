import { randomUUID } from 'node:crypto';
import { isValidEmail, Uuid } from '@switchboard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../errors.ts';
import { requireBusiness } from '../../plugins/auth.ts';
import { phoneOrRefuse } from '../customers/service.ts';
import { findLocation } from '../locations/service.ts';

const SANDBOX_CHANNELS = [
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
const EMAIL_CHANNELS = new Set(['email', 'web_form', 'contact_form']);
const ID_CHANNELS = new Set(['facebook', 'instagram', 'widget']);

const SandboxInbound = z.strictObject({
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

/**
 * Sandbox mode only: a message "from a customer" on any channel, ingested exactly as a provider webhook's
 * would be. For trying the product (the simulator) and for tests.
 */
export const sandboxRoutes: FastifyPluginAsyncZod = async (app) => {
  if (!app.config.sandbox) return;
  app.addHook('onRequest', app.authenticate);

  app.post('/sandbox/inbound', { schema: { body: SandboxInbound } }, async (request) => {
    const a = requireBusiness(request.actor);
    const input = request.body;
    const location = await findLocation(app.db, a.business_id, input.location_id);
    if (!input.message.trim()) throw new AppError('unprocessable', 'Write the message the customer sends.');

    const from = { ...input.from };
    if (EMAIL_CHANNELS.has(input.channel)) {
      if (!from.email || !isValidEmail(from.email))
        throw new AppError('unprocessable', 'Give the customer a valid email address.');
      from.email = from.email.toLowerCase();
    } else if (ID_CHANNELS.has(input.channel)) {
      if (!from.external_id && !from.phone)
        throw new AppError('unprocessable', 'Give the customer an id or phone number.');
    } else {
      if (!from.phone) throw new AppError('unprocessable', 'Give the customer a phone number.');
      from.phone = phoneOrRefuse(from.phone);
    }
    if (from.phone && ID_CHANNELS.has(input.channel)) from.phone = phoneOrRefuse(from.phone);

    const result = await app.inbound.receive({
      provider: 'sandbox',
      provider_message_id: `sandbox-in-${randomUUID()}`,
      channel: input.channel,
      location_id: location.id,
      from,
      message: input.message,
      subject: input.subject,
      source: input.source,
      medium: input.medium,
      campaign: input.campaign,
    });
    return { body: { enquiry_id: result.enquiry.id, message: result.message } };
  });
};
