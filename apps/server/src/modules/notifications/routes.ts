import {
  answer,
  PushSubscribed,
  PushSubscriptionRequest,
  PushUnsubscribeRequest,
  VapidPublicKey,
} from '@switchboard/shared';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { subscribe, unsubscribe } from './push.ts';
import { vapidKeys } from './vapid.ts';

export const pushRoutes: FastifyPluginAsyncZod = async (app) => {
  // Public: the key is public by nature, and the service worker may ask before anyone signs in.
  app.get('/push/vapid-public-key', { schema: { response: { 200: answer(VapidPublicKey) } } }, async () => ({
    body: { public_key: vapidKeys(app.config).publicKey },
  }));

  app.register(async (scope) => {
    const authed = scope.withTypeProvider<ZodTypeProvider>();
    authed.addHook('onRequest', authed.authenticate);
    authed.post(
      '/push/subscriptions',
      { schema: { body: PushSubscriptionRequest, response: { 200: answer(PushSubscribed) } } },
      async (request) => ({
        body: await subscribe(request.ctx, request.body, request.headers['user-agent']),
      }),
    );
    authed.delete(
      '/push/subscriptions',
      { schema: { body: PushUnsubscribeRequest, response: { 200: answer(PushSubscribed) } } },
      async (request) => ({ body: await unsubscribe(request.ctx, request.body) }),
    );
  });
};
