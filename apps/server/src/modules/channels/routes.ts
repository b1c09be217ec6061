import {
  AvailableNumberList,
  AvailableNumbersQuery,
  answer,
  BoughtNumber,
  BuyNumberRequest,
  ChannelAccount,
  ChannelAccountPage,
  CreateChannelRequest,
  Deleted,
  IdParams,
  ListChannelsQuery,
  LocationReachQuery,
  LocationReachSchema,
  MessageSchema,
  PlatformNumberList,
  PlatformNumberSchema,
  PlatformNumbersQuery,
  PurchasedNumber,
  PurchaseNumberRequest,
  SendTemplateRequest,
  TemplatesRefreshQuery,
  UpdateChannelRequest,
  WhatsAppTemplateList,
} from '@switchboard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { createChannel, deleteChannel, getChannel, listChannels, updateChannel } from './accounts.ts';
import { registerChannelAdapters } from './adapters.ts';
import { buyNumber, listPlatformNumbers, releaseNumber, searchNumbers } from './platform-numbers.ts';
import { purchaseNumber } from './purchase-number.ts';
import { locationReach } from './reach.ts';
import { listChannelTemplates, listEnquiryTemplates, sendWhatsAppTemplate } from './templates.ts';

/**
 * Connected provider accounts (owner only), the numbers bought for locations, and WhatsApp templates.
 * Registers the provider adapters and send policies with the channel registry.
 */
export const channelRoutes: FastifyPluginAsyncZod = async (app) => {
  registerChannelAdapters(app);
  app.addHook('onRequest', app.authenticate);
  // An account connected, changed, removed or given a number: cached webhook look-ups are dropped.
  app.addHook('onResponse', async (request, reply) => {
    if (request.method !== 'GET' && reply.statusCode < 300 && request.actor?.business_id) {
      app.events.emit('channels.changed', { business_id: request.actor.business_id });
    }
  });

  // Everyone at the business may see how customers reach a location; changing it is the owner's.
  app.get(
    '/channels/reach',
    { schema: { querystring: LocationReachQuery, response: { 200: answer(LocationReachSchema) } } },
    async (request) => ({ body: await locationReach(request.ctx, request.query.location_id) }),
  );

  app.get(
    '/channels',
    { schema: { querystring: ListChannelsQuery, response: { 200: answer(ChannelAccountPage) } } },
    async (request) => ({
      body: await listChannels(request.ctx, request.query),
    }),
  );

  app.post(
    '/channels',
    { schema: { body: CreateChannelRequest, response: { 200: answer(ChannelAccount) } } },
    async (request) => ({
      body: await createChannel(request.ctx, request.body),
    }),
  );

  app.get(
    '/channels/:id',
    { schema: { params: IdParams, response: { 200: answer(ChannelAccount) } } },
    async (request) => ({
      body: await getChannel(request.ctx, request.params.id),
    }),
  );

  app.patch(
    '/channels/:id',
    { schema: { params: IdParams, body: UpdateChannelRequest, response: { 200: answer(ChannelAccount) } } },
    async (request) => ({
      body: await updateChannel(request.ctx, request.params.id, request.body),
    }),
  );

  app.delete(
    '/channels/:id',
    { schema: { params: IdParams, response: { 200: answer(Deleted) } } },
    async (request) => ({
      body: await deleteChannel(request.ctx, request.params.id),
    }),
  );

  app.get(
    '/channels/:id/whatsapp-templates',
    {
      schema: {
        params: IdParams,
        querystring: TemplatesRefreshQuery,
        response: { 200: answer(WhatsAppTemplateList) },
      },
    },
    async (request) => ({
      body: await listChannelTemplates(request.ctx, request.params.id, request.query.refresh),
    }),
  );

  app.get(
    '/enquiries/:id/whatsapp-templates',
    { schema: { params: IdParams, response: { 200: answer(WhatsAppTemplateList) } } },
    async (request) => ({
      body: await listEnquiryTemplates(request.ctx, request.params.id),
    }),
  );

  app.post(
    '/enquiries/:id/whatsapp-template',
    { schema: { params: IdParams, body: SendTemplateRequest, response: { 200: answer(MessageSchema) } } },
    async (request) => ({
      body: await sendWhatsAppTemplate(request.ctx, request.params.id, request.body),
    }),
  );

  app.post(
    '/business/locations/purchase-number/:id',
    { schema: { params: IdParams, body: PurchaseNumberRequest, response: { 200: answer(PurchasedNumber) } } },
    async (request) => ({
      body: await purchaseNumber(request.ctx, request.params.id, request.body),
    }),
  );

  // Numbers bought through the platform Twilio account (owner only): search, buy, list, release.
  app.get(
    '/channels/numbers/available',
    { schema: { querystring: AvailableNumbersQuery, response: { 200: answer(AvailableNumberList) } } },
    async (request) => ({ body: await searchNumbers(request.ctx, request.query) }),
  );

  app.get(
    '/channels/numbers',
    { schema: { querystring: PlatformNumbersQuery, response: { 200: answer(PlatformNumberList) } } },
    async (request) => ({ body: await listPlatformNumbers(request.ctx, request.query.location_id) }),
  );

  app.post(
    '/channels/numbers',
    { schema: { body: BuyNumberRequest, response: { 200: answer(BoughtNumber) } } },
    async (request) => ({ body: await buyNumber(request.ctx, request.body) }),
  );

  app.delete(
    '/channels/numbers/:id',
    { schema: { params: IdParams, response: { 200: answer(PlatformNumberSchema) } } },
    async (request) => ({ body: await releaseNumber(request.ctx, request.params.id) }),
  );
};
