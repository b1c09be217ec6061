import {
  EmailField,
  IdParams,
  isValidEmail,
  OriginField,
  optionalText,
  PageQuery,
  PhoneField,
  TimeZoneField,
  UrlField,
} from '@switchboard/shared';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../errors.ts';
import { requireOwner } from '../../plugins/auth.ts';
import { readSingleFile } from '../uploads/multipart.ts';
import { businessEmailAddresses, businessPhoneNumbers } from './contacts.ts';
import {
  type Ctx,
  clearBusinessImage,
  clearCache,
  getFeatures,
  imageTooLarge,
  setBusinessImage,
  updateBusiness,
} from './service.ts';

const UpdateBusinessRequest = z.strictObject({
  name: z.string().trim().min(1).max(200).optional(),
  timezone: TimeZoneField.optional(),
  website: UrlField.nullable().optional(),
  site_origins: z
    .array(OriginField)
    .max(20, 'At most 20 other website addresses')
    .transform((origins) => [...new Set(origins)])
    .optional(),
  industry: optionalText(100).optional(),
});

const locationId = z.uuid('must be a location id').nullable().optional();

const CreatePhoneRequest = z.strictObject({
  label: optionalText(100).optional(),
  phone: PhoneField,
  location_id: locationId,
});
const UpdatePhoneRequest = CreatePhoneRequest.partial();

const CreateEmailRequest = z.strictObject({
  label: optionalText(100).optional(),
  email: EmailField,
  location_id: locationId,
});
const UpdateEmailRequest = CreateEmailRequest.partial();

const ValidateEmailRequest = z.strictObject({
  email: z.string().trim().min(1, 'Please enter an email').max(1000),
});

const IMAGE_FIELD = 'image';

/** The one file in the multipart field `image`, read into memory up to the image size limit. */
function readImage(request: FastifyRequest, maxBytes: number) {
  return readSingleFile(request, { field: IMAGE_FIELD, maxBytes, tooLarge: imageTooLarge });
}

export const businessRoutes: FastifyPluginAsyncZod = async (app) => {
  const ctx: Ctx = { db: app.db, config: app.config, cache: app.businessCache };

  // Needs no login: it answers only whether text looks like an email, and the registration form uses it.
  app.put('/business/validators/email', { schema: { body: ValidateEmailRequest } }, async (request) => {
    const { email } = request.body;
    if (!isValidEmail(email)) throw new AppError('unprocessable', `${email} is not a valid email`);
    return { body: { email, valid: true } };
  });

  app.register(async (scope) => {
    const authed = scope.withTypeProvider<ZodTypeProvider>();
    authed.addHook('onRequest', authed.authenticate);

    authed.put('/business/mybusiness', { schema: { body: UpdateBusinessRequest } }, async (request) => ({
      body: await updateBusiness(ctx, request.actor, request.body),
    }));

    authed.put('/business/mybusinessimage', async (request) => {
      // Checked before the upload is read, so staff are refused without sending megabytes first.
      requireOwner(request.actor, 'change the business image');
      const file = await readImage(request, app.config.imageMaxBytes);
      return { body: await setBusinessImage(ctx, request.actor, file) };
    });

    authed.delete('/business/mybusinessimage', async (request) => ({
      body: await clearBusinessImage(ctx, request.actor),
    }));

    authed.get('/business/mybusiness/phone', { schema: { querystring: PageQuery } }, async (request) => ({
      body: await businessPhoneNumbers.list(app.db, request.actor, request.query),
    }));
    authed.post('/business/mybusiness/phone', { schema: { body: CreatePhoneRequest } }, async (request) => ({
      body: await businessPhoneNumbers.create(app.db, request.actor, request.body),
    }));
    authed.put(
      '/business/mybusiness/phone/:id',
      { schema: { params: IdParams, body: UpdatePhoneRequest } },
      async (request) => ({
        body: await businessPhoneNumbers.update(app.db, request.actor, request.params.id, request.body),
      }),
    );
    authed.delete('/business/mybusiness/phone/:id', { schema: { params: IdParams } }, async (request) => ({
      body: await businessPhoneNumbers.remove(app.db, request.actor, request.params.id),
    }));

    authed.get('/business/mybusiness/email', { schema: { querystring: PageQuery } }, async (request) => ({
      body: await businessEmailAddresses.list(app.db, request.actor, request.query),
    }));
    authed.post('/business/mybusiness/email', { schema: { body: CreateEmailRequest } }, async (request) => ({
      body: await businessEmailAddresses.create(app.db, request.actor, request.body),
    }));
    authed.put(
      '/business/mybusiness/email/:id',
      { schema: { params: IdParams, body: UpdateEmailRequest } },
      async (request) => ({
        body: await businessEmailAddresses.update(app.db, request.actor, request.params.id, request.body),
      }),
    );
    authed.delete('/business/mybusiness/email/:id', { schema: { params: IdParams } }, async (request) => ({
      body: await businessEmailAddresses.remove(app.db, request.actor, request.params.id),
    }));

    authed.get('/business/mybusiness/features', async (request) => ({
      body: await getFeatures(ctx, request.actor),
    }));

    authed.delete('/business/clear/cache', async (request) => ({
      body: await clearCache(ctx, request.actor),
    }));
  });
};
