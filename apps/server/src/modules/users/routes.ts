import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { getMe, updateMe } from './service.ts';

const UpdateMeRequest = z.strictObject({
  full_name: z.string().trim().min(1).max(200).optional(),
  enable_notifications: z.boolean().optional(),
  enable_enquiry_notification: z.boolean().optional(),
  enable_message_notification: z.boolean().optional(),
  ringtone_enquiry: z.string().max(200).nullable().optional(),
  ringtone_message: z.string().max(200).nullable().optional(),
});

export const userRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);

  app.get('/user/me', async (request) => ({ body: await getMe(app.db, request.actor) }));

  app.patch('/user/me', { schema: { body: UpdateMeRequest } }, async (request) => ({
    body: await updateMe(app.db, request.actor, request.body),
  }));
};
