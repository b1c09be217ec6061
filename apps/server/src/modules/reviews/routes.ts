import {
  answer,
  GoogleConnectLink,
  GoogleLocations,
  IdParams,
  ReviewRequestOutcome,
  ReviewRequestPage,
  ReviewRequestRequest,
  ReviewRequestsQuery,
  ReviewSettings,
  ReviewSettingsRequest,
  ReviewTemplate,
  ReviewTemplateRequest,
} from '@switchboard/shared';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireBusiness, requireOwner } from '../../plugins/auth.ts';
import { requireFeature } from '../admin/service.ts';
import { completeGoogleConnection, googleConnectLink, googleLocations } from './google.ts';
import {
  customerReplied,
  getReviewSettings,
  listReviewRequests,
  openReviewLink,
  requestReviews,
  updateReviewSettings,
  updateReviewTemplate,
} from './service.ts';

/** Review requests, each location's review text, link and reminders (staff; settings for the owner). */
export const reviewRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);
  app.addHook('preHandler', async (request) => requireFeature(request.ctx, 'reviews'));

  app.patch(
    '/business/locations/:id/update-review-template',
    { schema: { params: IdParams, body: ReviewTemplateRequest, response: { 200: answer(ReviewTemplate) } } },
    async (request) => ({ body: await updateReviewTemplate(request.ctx, request.params.id, request.body) }),
  );
  app.get(
    '/business/locations/google-locations',
    { schema: { response: { 200: answer(GoogleLocations) } } },
    async (request) => {
      const a = requireBusiness(request.actor);
      return { body: await googleLocations(app, a.business_id) };
    },
  );
  app.get(
    '/business/google/connect-link',
    { schema: { response: { 200: answer(GoogleConnectLink) } } },
    async (request) => {
      const a = requireOwner(request.actor, 'connect Google Business Profile');
      return { body: { url: googleConnectLink(app.config, a.business_id, a.user_id) } };
    },
  );
  app.get(
    '/business/locations/:id/review-reminders',
    { schema: { params: IdParams, response: { 200: answer(ReviewSettings) } } },
    async (request) => ({ body: await getReviewSettings(request.ctx, request.params.id) }),
  );
  app.put(
    '/business/locations/:id/review-reminders',
    { schema: { params: IdParams, body: ReviewSettingsRequest, response: { 200: answer(ReviewSettings) } } },
    async (request) => ({ body: await updateReviewSettings(request.ctx, request.params.id, request.body) }),
  );
  app.post(
    '/business/review-requests',
    { schema: { body: ReviewRequestRequest, response: { 200: answer(ReviewRequestOutcome) } } },
    async (request) => ({ body: await requestReviews(app, request.ctx, request.body) }),
  );
  app.get(
    '/business/review-requests',
    { schema: { querystring: ReviewRequestsQuery, response: { 200: answer(ReviewRequestPage) } } },
    async (request) => ({ body: await listReviewRequests(request.ctx, request.query) }),
  );
};

/**
 * `GET /r/{token}`: the short review link a customer is sent. Recorded, then on to the review page; a link
 * that is not one says so.
 */
export async function reviewLinkRoutes(app: FastifyInstance): Promise<void> {
  app.get(
    '/r/:token',
    { schema: { params: z.strictObject({ token: z.string().max(40) }) } },
    async (request, reply) => {
      const target = await openReviewLink(app, (request.params as { token: string }).token);
      if (!target)
        return reply
          .code(404)
          .type('text/plain; charset=utf-8')
          .send('This review link is not valid. Ask the business to send it again.');
      return reply.header('cache-control', 'no-store').redirect(target, 302);
    },
  );
  // Google sends the owner back here after they let Switchboard read their Business Profile (no login header:
  // the signed state names the business).
  app.get(
    '/api/v1/business/google/callback',
    {
      schema: {
        querystring: z.object({
          code: z.string().max(2000).optional(),
          state: z.string().max(500).optional(),
          error: z.string().max(200).optional(),
        }),
      },
    },
    async (request, reply) =>
      reply.redirect(
        await completeGoogleConnection(
          app,
          request.query as { code?: string; state?: string; error?: string },
        ),
        303,
      ),
  );
  // A customer who writes back has answered: their review reminders stop (an out-of-office reply has not).
  app.events.on('message.created', ({ message }) => {
    if (message.direction === 'in' && message.meta.auto_submitted !== true)
      customerReplied(app, message.enquiry_id).catch((error: unknown) =>
        app.log.warn({ err: error }, 'could not stop review reminders'),
      );
  });
}
