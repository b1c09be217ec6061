import {
  answer,
  CreateLocationRequest,
  Deleted,
  IdParams,
  Location,
  LocationPage,
  PageQuery,
  PublicHolidayPlaces,
  PublicHolidays,
  PublicHolidaysQuery,
  UpdateLocationRequest,
} from '@switchboard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { publicHolidayPlaces, publicHolidays } from './public-holidays.ts';
import { createLocation, deleteLocation, getLocation, listLocations, updateLocation } from './service.ts';

export const locationRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);

  // The public holidays an owner can add to a location's holidays in one go.
  app.get(
    '/public-holidays/places',
    { schema: { response: { 200: answer(PublicHolidayPlaces) } } },
    async () => ({ body: publicHolidayPlaces() }),
  );
  app.get(
    '/public-holidays',
    { schema: { querystring: PublicHolidaysQuery, response: { 200: answer(PublicHolidays) } } },
    async (request) => ({ body: publicHolidays(request.query) }),
  );

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
