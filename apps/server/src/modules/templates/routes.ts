import { TemplatePatchRequest, TemplateRequest, Uuid } from '@switchboard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { IdParams } from '../../lib/fields.ts';
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
    { schema: { querystring: z.strictObject({ location_id: Uuid.optional() }) } },
    async (request) => ({
      body: { items: await listTemplates(app.db, request.actor, request.query.location_id) },
    }),
  );
  app.post('/templates', { schema: { body: TemplateRequest } }, async (request) => ({
    body: await createTemplate(app.db, request.actor, request.body),
  }));
  app.put(
    '/templates/:id',
    { schema: { params: IdParams, body: TemplatePatchRequest } },
    async (request) => ({
      body: await updateTemplate(app.db, request.actor, request.params.id, request.body),
    }),
  );
  app.delete('/templates/:id', { schema: { params: IdParams } }, async (request) => {
    await deleteTemplate(app.db, request.actor, request.params.id);
    return { body: { deleted: true } };
  });
  app.get('/enquiries/:id/templates', { schema: { params: IdParams } }, async (request) => ({
    body: { items: await templatesForEnquiry(app.db, request.actor, request.params.id) },
  }));
};
