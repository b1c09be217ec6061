import { DraftRequest, IdParams, NewConversationRequest, SendMessageRequest } from '@switchboard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AdapterRegistry } from '../../channels/registry.ts';
import { uploadContentUrl } from '../../lib/storage.ts';
import {
  deleteDraft,
  getDraft,
  listMessages,
  type MessagesCtx,
  saveDraft,
  sendMessage,
  startConversation,
} from './service.ts';

const Paging = z.strictObject({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(10),
});

export const messageRoutes: FastifyPluginAsyncZod<{ registry: AdapterRegistry }> = async (
  app,
  { registry },
) => {
  const ctx: MessagesCtx = {
    db: app.db,
    events: app.events,
    jobs: app.jobs,
    registry,
    uploadUrl: uploadContentUrl,
  };

  app.register(async (scope) => {
    const authed = scope.withTypeProvider<import('fastify-type-provider-zod').ZodTypeProvider>();
    authed.addHook('onRequest', authed.authenticate);

    authed.get(
      '/enquiries/:id/messages',
      { schema: { params: IdParams, querystring: Paging } },
      async (request) => ({
        body: await listMessages(ctx, request.actor, request.params.id, request.query),
      }),
    );

    authed.post(
      '/enquiries/:id/messages',
      { schema: { params: IdParams, body: SendMessageRequest } },
      async (request) => ({
        body: await sendMessage(ctx, request.actor, request.params.id, request.body),
      }),
    );

    authed.post('/messages', { schema: { body: NewConversationRequest } }, async (request) => ({
      body: await startConversation(ctx, request.actor, request.body),
    }));

    authed.get('/enquiries/:id/draft', { schema: { params: IdParams } }, async (request) => ({
      body: await getDraft(ctx, request.actor, request.params.id),
    }));

    authed.put(
      '/enquiries/:id/draft',
      { schema: { params: IdParams, body: DraftRequest } },
      async (request) => ({
        body: await saveDraft(ctx, request.actor, request.params.id, request.body),
      }),
    );

    authed.delete('/enquiries/:id/draft', { schema: { params: IdParams } }, async (request) => {
      await deleteDraft(ctx, request.actor, request.params.id);
      return { body: { deleted: true } };
    });
  });
};
