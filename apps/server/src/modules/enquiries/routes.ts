import {
  answer,
  CountsQuery,
  EnquiryBulkAnswer,
  EnquiryBulkRequest,
  EnquiryListQuery,
  EnquiryPageSchema,
  EnquiryPatchRequest,
  EnquiryRowSchema,
  IdParams,
  LocationCountsSchema,
  ReplyRouteSchema,
  SeenRequest,
  UnreadCountsSchema,
} from '@switchboard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireBusiness } from '../../plugins/auth.ts';
import {
  bulkUpdateEnquiries,
  getCounts,
  getEnquiry,
  getUnreadCounts,
  listEnquiries,
  loadEnquiry,
  markSeen,
  updateEnquiry,
} from './service.ts';

export const enquiryRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);

  app.get(
    '/enquiries',
    { schema: { querystring: EnquiryListQuery, response: { 200: answer(EnquiryPageSchema) } } },
    async (request) => ({
      body: await listEnquiries(request.ctx, request.query),
    }),
  );

  // Where a reply goes now: a website chat's goes to the open chat, or by SMS once the visitor has left.
  app.get(
    '/enquiries/:id/reply-route',
    { schema: { params: IdParams, response: { 200: answer(ReplyRouteSchema) } } },
    async (request) => {
      const a = requireBusiness(request.actor);
      const { e } = await loadEnquiry(request.ctx.db, a, request.params.id);
      return { body: await app.channels.replyRoute(e) };
    },
  );

  app.post(
    '/enquiries/bulk',
    { schema: { body: EnquiryBulkRequest, response: { 200: answer(EnquiryBulkAnswer) } } },
    async (request) => ({ body: { items: await bulkUpdateEnquiries(request.ctx, request.body) } }),
  );

  app.get(
    '/enquiries/unread',
    { schema: { response: { 200: answer(UnreadCountsSchema) } } },
    async (request) => ({ body: await getUnreadCounts(request.ctx) }),
  );

  app.get(
    '/enquiries/counts',
    { schema: { querystring: CountsQuery, response: { 200: answer(LocationCountsSchema) } } },
    async (request) => ({
      body: await getCounts(request.ctx, request.query.location_id, request.query.all_locations === 'true'),
    }),
  );

  app.get(
    '/enquiries/:id',
    { schema: { params: IdParams, response: { 200: answer(EnquiryRowSchema) } } },
    async (request) => ({
      body: await getEnquiry(request.ctx, request.params.id),
    }),
  );

  app.patch(
    '/enquiries/:id',
    { schema: { params: IdParams, body: EnquiryPatchRequest, response: { 200: answer(EnquiryRowSchema) } } },
    async (request) => ({
      body: await updateEnquiry(request.ctx, request.params.id, request.body),
    }),
  );

  app.put(
    '/enquiries/:id/seen',
    { schema: { params: IdParams, body: SeenRequest, response: { 200: answer(EnquiryRowSchema) } } },
    async (request) => ({
      body: await markSeen(request.ctx, request.params.id, request.body?.seen ?? true),
    }),
  );
};
