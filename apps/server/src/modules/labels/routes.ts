import { answer, Deleted, IdParams, LabelListSchema, LabelRequest, LabelSchema } from '@switchboard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { createLabel, deleteLabel, listLabels, updateLabel } from './service.ts';

/** The business's labels for enquiries: everyone reads them, the owner manages them. */
export const labelRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);
  // Every screen of the business reads the list again after a change (the label pickers, filters and rows).
  app.addHook('onResponse', async (request, reply) => {
    if (request.method !== 'GET' && reply.statusCode === 200 && request.actor?.business_id)
      app.events.emit('labels.changed', { business_id: request.actor.business_id });
  });
  app.get('/labels', { schema: { response: { 200: answer(LabelListSchema) } } }, async (request) => ({
    body: { items: await listLabels(request.ctx) },
  }));
  app.post(
    '/labels',
    { schema: { body: LabelRequest, response: { 200: answer(LabelSchema) } } },
    async (request) => ({
      body: await createLabel(request.ctx, request.body),
    }),
  );
  app.put(
    '/labels/:id',
    { schema: { params: IdParams, body: LabelRequest, response: { 200: answer(LabelSchema) } } },
    async (request) => ({ body: await updateLabel(request.ctx, request.params.id, request.body) }),
  );
  app.delete(
    '/labels/:id',
    { schema: { params: IdParams, response: { 200: answer(Deleted) } } },
    async (request) => {
      await deleteLabel(request.ctx, request.params.id);
      return { body: { id: request.params.id, deleted: true as const } };
    },
  );
};
