import { answer, UpdateMeRequest, UserMe } from '@switchboard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { imageTooLarge } from '../businesses/service.ts';
import { readSingleFile } from '../uploads/multipart.ts';
import { clearAvatar, setAvatar } from './avatar.ts';
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

  app.put('/user/me/avatar', { schema: { response: { 200: answer(UserMe) } } }, async (request) => {
    const file = await readSingleFile(request, {
      field: 'image',
      maxBytes: app.config.imageMaxBytes,
      tooLarge: imageTooLarge,
    });
    return { body: await setAvatar(request.ctx, file) };
  });
  app.delete('/user/me/avatar', { schema: { response: { 200: answer(UserMe) } } }, async (request) => ({
    body: await clearAvatar(request.ctx),
  }));
};
