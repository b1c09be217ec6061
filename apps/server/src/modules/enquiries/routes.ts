import { EnquiryListQuery, EnquiryPatchRequest, IdParams, Uuid } from '@switchboard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { getCounts, getEnquiry, listEnquiries, markSeen, updateEnquiry } from './service.ts';

export const enquiryRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);
  const ctx = { db: app.db, events: app.events };

  app.get('/enquiries', { schema: { querystring: EnquiryListQuery } }, async (request) => ({
    body: await listEnquiries(ctx, request.actor, request.query),
  }));

  app.get(
    '/enquiries/counts',
    { schema: { querystring: z.strictObject({ location_id: Uuid.optional() }) } },
    async (request) => ({ body: await getCounts(ctx, request.actor, request.query.location_id) }),
  );

  app.get('/enquiries/:id', { schema: { params: IdParams } }, async (request) => ({
    body: await getEnquiry(ctx, request.actor, request.params.id),
  }));

  app.patch(
    '/enquiries/:id',
    { schema: { params: IdParams, body: EnquiryPatchRequest } },
    async (request) => ({
      body: await updateEnquiry(ctx, request.actor, request.params.id, request.body),
    }),
  );

  app.put(
    '/enquiries/:id/seen',
    { schema: { params: IdParams, body: z.strictObject({ seen: z.boolean().default(true) }).nullish() } },
    async (request) => ({
      body: await markSeen(ctx, request.actor, request.params.id, request.body?.seen ?? true),
    }),
  );
};
