import { randomUUID } from 'node:crypto';
import {
  answer,
  ConversationMessageSchema,
  identityOf,
  isValidEmail,
  SandboxConversationQuery,
  SandboxConversationSchema,
  SandboxInboundRequest,
} from '@switchboard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError, fieldError } from '../../errors.ts';
import { requireBusiness } from '../../plugins/auth.ts';
import { phoneOrRefuse } from '../customers/service.ts';
import { findLocation } from '../locations/service.ts';
import { findSandboxConversation } from './conversation.ts';

/**
 * Sandbox mode only: a message "from a customer" on any channel, ingested exactly as a provider webhook's
 * would be. For trying the product (the simulator) and for tests.
 */
export const sandboxRoutes: FastifyPluginAsyncZod = async (app) => {
  if (!app.config.sandbox) return;
  app.addHook('onRequest', app.authenticate);

  app.post(
    '/sandbox/inbound',
    { schema: { body: SandboxInboundRequest, response: { 200: answer(ConversationMessageSchema) } } },
    async (request) => {
      const a = requireBusiness(request.actor);
      const input = request.body;
      const location = await findLocation(app.db, a, input.location_id);
      if (!input.message.trim()) throw new AppError('unprocessable', 'Write the message the customer sends.');

      const from = { ...input.from };
      const identity = identityOf(input.channel);
      if (identity === 'email') {
        if (!from.email || !isValidEmail(from.email))
          throw fieldError('unprocessable', 'from.email', 'Give the customer a valid email address.');
        from.email = from.email.toLowerCase();
      } else if (identity === 'external_id') {
        if (!from.external_id && !from.phone)
          throw new AppError('unprocessable', 'Give the customer an id or phone number.');
      } else {
        if (!from.phone) throw new AppError('unprocessable', 'Give the customer a phone number.');
        from.phone = phoneOrRefuse(from.phone, 'from.phone');
      }
      if (from.phone && identity === 'external_id') from.phone = phoneOrRefuse(from.phone, 'from.phone');

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
    },
  );

  app.get(
    '/sandbox/conversation',
    {
      schema: { querystring: SandboxConversationQuery, response: { 200: answer(SandboxConversationSchema) } },
    },
    async (request) => {
      const a = requireBusiness(request.actor);
      const location = await findLocation(app.db, a, request.query.location_id);
      const enquiryId = await findSandboxConversation(app.db, {
        business_id: a.business_id,
        location_id: location.id,
        channel: request.query.channel,
        identity: request.query.identity,
      });
      return { body: { enquiry_id: enquiryId } };
    },
  );
};
