import {
  answer,
  CreateLocationRequest,
  Deleted,
  IdParams,
  Location,
  LocationPage,
  PageQuery,
  UpdateLocationRequest,
} from '@switchboard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { createLocation, deleteLocation, getLocation, listLocations, updateLocation } from './service.ts';

export const locationRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);

  app.get(
    '/business/locations',
    { schema: { querystring: PageQuery, response: { 200: answer(LocationPage) } } },
    async (request) => ({
      body: await listLocations(request.ctx, request.query),
    }),
  );

  app.post(
    '/business/locations',
    { schema: { body: CreateLocationRequest, response: { 200: answer(Location) } } },
    async (request) => ({
      body: await createLocation(request.ctx, request.body),
    }),
  );

  app.get(
    '/business/locations/:id',
    { schema: { params: IdParams, response: { 200: answer(Location) } } },
    async (request) => ({
      body: await getLocation(request.ctx, request.params.id),
    }),
  );

  app.patch(
    '/business/locations/:id',
    { schema: { params: IdParams, body: UpdateLocationRequest, response: { 200: answer(Location) } } },
    async (request) => ({
      body: await updateLocation(request.ctx, request.params.id, request.body),
    }),
  );

  app.delete(
    '/business/locations/:id',
    { schema: { params: IdParams, response: { 200: answer(Deleted) } } },
    async (request) => ({
      body: await deleteLocation(request.ctx, request.params.id),
    }),
  );
};
