import {
  answer,
  CustomerListQuery,
  CustomerMergeRequest,
  CustomerPageSchema,
  CustomerPatchRequest,
  CustomerSchema,
  IdParams,
} from '@switchboard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { getCustomer, listCustomers, mergeCustomers, updateCustomer } from './profile.ts';

export const customerRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);

  app.get(
    '/customers',
    { schema: { querystring: CustomerListQuery, response: { 200: answer(CustomerPageSchema) } } },
    async (request) => ({ body: await listCustomers(request.ctx, request.query) }),
  );
  app.get(
    '/customers/:id',
    { schema: { params: IdParams, response: { 200: answer(CustomerSchema) } } },
    async (request) => ({ body: await getCustomer(request.ctx, request.params.id) }),
  );
  app.patch(
    '/customers/:id',
    { schema: { params: IdParams, body: CustomerPatchRequest, response: { 200: answer(CustomerSchema) } } },
    async (request) => ({ body: await updateCustomer(request.ctx, request.params.id, request.body) }),
  );
  app.post(
    '/customers/:id/merge',
    { schema: { params: IdParams, body: CustomerMergeRequest, response: { 200: answer(CustomerSchema) } } },
    async (request) => ({
      body: await mergeCustomers(request.ctx, request.params.id, request.body.other_id),
    }),
  );
};
