import {
  EmailField,
  IdParams,
  optionalText,
  PageQuery,
  PhoneField,
  TimeZoneField,
} from '@switchboard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createLocation, deleteLocation, getLocation, listLocations, updateLocation } from './service.ts';

const fields = {
  address: optionalText(500).optional(),
  precedence: z.number().int().min(0).max(100_000).optional(),
  timezone: TimeZoneField.nullable().optional(),
  phone_number: PhoneField.nullable().optional(),
  email_address: EmailField.nullable().optional(),
};

const CreateLocationRequest = z.strictObject({ name: z.string().trim().min(1).max(200), ...fields });

const UpdateLocationRequest = z.strictObject({
  name: z.string().trim().min(1).max(200).nullable().optional(),
  ...fields,
});

export const locationRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);

  app.get('/business/locations', { schema: { querystring: PageQuery } }, async (request) => ({
    body: await listLocations(app.db, request.actor, request.query),
  }));

  app.post('/business/locations', { schema: { body: CreateLocationRequest } }, async (request) => ({
    body: await createLocation(app.db, request.actor, request.body),
  }));

  app.get('/business/locations/:id', { schema: { params: IdParams } }, async (request) => ({
    body: await getLocation(app.db, request.actor, request.params.id),
  }));

  app.patch(
    '/business/locations/:id',
    { schema: { params: IdParams, body: UpdateLocationRequest } },
    async (request) => ({
      body: await updateLocation(app.db, request.actor, request.params.id, request.body),
    }),
  );

  app.delete('/business/locations/:id', { schema: { params: IdParams } }, async (request) => ({
    body: await deleteLocation(app.db, request.actor, request.params.id),
  }));
};
