import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendFeedback } from './service.ts';

const FeedbackRequest = z.strictObject({
  error_code: z.string().max(200).optional(),
  debug_code: z.string().max(200).optional(),
  message: z.string().trim().min(1, 'Please enter your feedback').max(5000),
  path: z.string().max(2000).optional(),
});

export const feedbackRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);

  app.post('/feedback', { schema: { body: FeedbackRequest } }, async (request) => ({
    body: await sendFeedback(app.db, request.actor, {
      ...request.body,
      user_agent: request.headers['user-agent'],
    }),
  }));
};
