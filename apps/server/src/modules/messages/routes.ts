import {
  answer,
  ConversationMessageSchema,
  DraftDeleted,
  DraftRequest,
  DraftSchema,
  IdParams,
  MessagePageSchema,
  MessagePaging,
  MessageSchema,
  NewConversationRequest,
  SendMessageRequest,
} from '@switchboard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { deleteDraft, getDraft, listMessages, saveDraft, sendMessage, startConversation } from './service.ts';

export const messageRoutes: FastifyPluginAsyncZod = async (app) => {
  app.register(async (scope) => {
    const authed = scope.withTypeProvider<import('fastify-type-provider-zod').ZodTypeProvider>();
    authed.addHook('onRequest', authed.authenticate);

    authed.get(
      '/enquiries/:id/messages',
      {
        schema: {
          params: IdParams,
          querystring: MessagePaging,
          response: { 200: answer(MessagePageSchema) },
        },
      },
      async (request) => ({
        body: await listMessages(request.ctx, request.params.id, request.query),
      }),
    );

    authed.post(
      '/enquiries/:id/messages',
      { schema: { params: IdParams, body: SendMessageRequest, response: { 200: answer(MessageSchema) } } },
      async (request) => ({
        body: await sendMessage(request.ctx, request.params.id, request.body),
      }),
    );

    authed.post(
      '/messages',
      { schema: { body: NewConversationRequest, response: { 200: answer(ConversationMessageSchema) } } },
      async (request) => ({
        body: await startConversation(request.ctx, request.body),
      }),
    );

    authed.get(
      '/enquiries/:id/draft',
      { schema: { params: IdParams, response: { 200: answer(DraftSchema.nullable()) } } },
      async (request) => ({
        body: await getDraft(request.ctx, request.params.id),
      }),
    );

    authed.put(
      '/enquiries/:id/draft',
      { schema: { params: IdParams, body: DraftRequest, response: { 200: answer(DraftSchema) } } },
      async (request) => ({
        body: await saveDraft(request.ctx, request.params.id, request.body),
      }),
    );

    authed.delete(
      '/enquiries/:id/draft',
      { schema: { params: IdParams, response: { 200: answer(DraftDeleted) } } },
      async (request) => {
        await deleteDraft(request.ctx, request.params.id);
        return { body: { deleted: true as const } };
      },
    );
  });
};
