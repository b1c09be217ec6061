import { answer, FeedbackAnswer, FeedbackRequest } from '@switchboard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sendFeedback } from './service.ts';

export const feedbackRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);

  app.post(
    '/feedback',
    { schema: { body: FeedbackRequest, response: { 200: answer(FeedbackAnswer) } } },
    async (request) => ({
      body: await sendFeedback(request.ctx, { ...request.body, user_agent: request.headers['user-agent'] }),
    }),
  );
};
