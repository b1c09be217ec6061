import {
  answer,
  IdParams,
  MessageTemplate,
  MessageTemplateList,
  RenderedTemplateList,
  TemplateDeleted,
  TemplatePatchRequest,
  TemplateRequest,
  TemplatesQuery,
} from '@switchboard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  createTemplate,
  deleteTemplate,
  listTemplates,
  templatesForEnquiry,
  updateTemplate,
} from './service.ts';

export const templateRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);

  app.get(
    '/templates',
    { schema: { querystring: TemplatesQuery, response: { 200: answer(MessageTemplateList) } } },
    async (request) => ({
      body: { items: await listTemplates(request.ctx, request.query.location_id) },
    }),
  );
  app.post(
    '/templates',
    { schema: { body: TemplateRequest, response: { 200: answer(MessageTemplate) } } },
    async (request) => ({ body: await createTemplate(request.ctx, request.body) }),
  );
  app.put(
    '/templates/:id',
    {
      schema: { params: IdParams, body: TemplatePatchRequest, response: { 200: answer(MessageTemplate) } },
    },
    async (request) => ({ body: await updateTemplate(request.ctx, request.params.id, request.body) }),
  );
  app.delete(
    '/templates/:id',
    { schema: { params: IdParams, response: { 200: answer(TemplateDeleted) } } },
    async (request) => {
      await deleteTemplate(request.ctx, request.params.id);
      return { body: { deleted: true as const } };
    },
  );
  app.get(
    '/enquiries/:id/templates',
    { schema: { params: IdParams, response: { 200: answer(RenderedTemplateList) } } },
    async (request) => ({
      body: { items: await templatesForEnquiry(request.ctx, request.params.id) },
    }),
  );
};
