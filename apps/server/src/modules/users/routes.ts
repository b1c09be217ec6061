import { answer, UpdateMeRequest, UserMe } from '@switchboard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { getMe, updateMe } from './service.ts';

export const userRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);

  app.get('/user/me', { schema: { response: { 200: answer(UserMe) } } }, async (request) => ({
    body: await getMe(request.ctx),
  }));

  app.patch(
    '/user/me',
    { schema: { body: UpdateMeRequest, response: { 200: answer(UserMe) } } },
    async (request) => ({
      body: await updateMe(request.ctx, request.body),
    }),
  );
};
