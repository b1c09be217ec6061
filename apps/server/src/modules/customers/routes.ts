import {
  answer,
  CustomerListQuery,
  CustomerMergeRequest,
  CustomerNoteRequest,
  CustomerPageSchema,
  CustomerPatchRequest,
  CustomerSchema,
  IdParams,
  PathId,
} from '@switchboard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { addCustomerNote, deleteCustomerNote } from './notes.ts';
import { getCustomer, listCustomers, mergeCustomers, updateCustomer } from './profile.ts';

const NoteParams = z.strictObject({ id: PathId, noteId: PathId });

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
    '/customers/:id/notes',
    { schema: { params: IdParams, body: CustomerNoteRequest, response: { 200: answer(CustomerSchema) } } },
    async (request) => ({ body: await addCustomerNote(request.ctx, request.params.id, request.body.body) }),
  );
  app.delete(
    '/customers/:id/notes/:noteId',
    { schema: { params: NoteParams, response: { 200: answer(CustomerSchema) } } },
    async (request) => ({
      body: await deleteCustomerNote(request.ctx, request.params.id, request.params.noteId),
    }),
  );
  app.post(
    '/customers/:id/merge',
    { schema: { params: IdParams, body: CustomerMergeRequest, response: { 200: answer(CustomerSchema) } } },
    async (request) => ({
      body: await mergeCustomers(request.ctx, request.params.id, request.body.other_id),
    }),
  );
};
