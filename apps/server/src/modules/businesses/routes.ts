import {
  answer,
  Business,
  BusinessEmail,
  BusinessEmailPage,
  BusinessPhone,
  BusinessPhonePage,
  CacheCleared,
  CreateEmailRequest,
  CreatePhoneRequest,
  Deleted,
  Features,
  IdParams,
  PageQuery,
  UpdateBusinessRequest,
  UpdateEmailRequest,
  UpdatePhoneRequest,
} from '@switchboard/shared';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireOwner } from '../../plugins/auth.ts';
import { readSingleFile } from '../uploads/multipart.ts';
import { businessEmailAddresses, businessPhoneNumbers } from './contacts.ts';
import {
  clearBusinessImage,
  clearCache,
  getFeatures,
  imageTooLarge,
  setBusinessImage,
  updateBusiness,
} from './service.ts';

const IMAGE_FIELD = 'image';

/** The one file in the multipart field `image`, read into memory up to the image size limit. */
function readImage(request: FastifyRequest, maxBytes: number) {
  return readSingleFile(request, { field: IMAGE_FIELD, maxBytes, tooLarge: imageTooLarge });
}

export const businessRoutes: FastifyPluginAsyncZod = async (app) => {
  app.register(async (scope) => {
    const authed = scope.withTypeProvider<ZodTypeProvider>();
    authed.addHook('onRequest', authed.authenticate);

    authed.put(
      '/business/mybusiness',
      { schema: { body: UpdateBusinessRequest, response: { 200: answer(Business) } } },
      async (request) => ({
        body: await updateBusiness(request.ctx, request.body),
      }),
    );

    authed.put(
      '/business/mybusinessimage',
      { schema: { response: { 200: answer(Business) } } },
      async (request) => {
        // Checked before the upload is read, so staff are refused without sending megabytes first.
        requireOwner(request.actor, 'change the business image');
        const file = await readImage(request, app.config.imageMaxBytes);
        return { body: await setBusinessImage(request.ctx, file) };
      },
    );

    authed.delete(
      '/business/mybusinessimage',
      { schema: { response: { 200: answer(Business) } } },
      async (request) => ({
        body: await clearBusinessImage(request.ctx),
      }),
    );

    authed.get(
      '/business/mybusiness/phone',
      { schema: { querystring: PageQuery, response: { 200: answer(BusinessPhonePage) } } },
      async (request) => ({
        body: await businessPhoneNumbers.list(request.ctx, request.query),
      }),
    );
    authed.post(
      '/business/mybusiness/phone',
      { schema: { body: CreatePhoneRequest, response: { 200: answer(BusinessPhone) } } },
      async (request) => ({
        body: await businessPhoneNumbers.create(request.ctx, request.body),
      }),
    );
    authed.put(
      '/business/mybusiness/phone/:id',
      { schema: { params: IdParams, body: UpdatePhoneRequest, response: { 200: answer(BusinessPhone) } } },
      async (request) => ({
        body: await businessPhoneNumbers.update(request.ctx, request.params.id, request.body),
      }),
    );
    authed.delete(
      '/business/mybusiness/phone/:id',
      { schema: { params: IdParams, response: { 200: answer(Deleted) } } },
      async (request) => ({
        body: await businessPhoneNumbers.remove(request.ctx, request.params.id),
      }),
    );

    authed.get(
      '/business/mybusiness/email',
      { schema: { querystring: PageQuery, response: { 200: answer(BusinessEmailPage) } } },
      async (request) => ({
        body: await businessEmailAddresses.list(request.ctx, request.query),
      }),
    );
    authed.post(
      '/business/mybusiness/email',
      { schema: { body: CreateEmailRequest, response: { 200: answer(BusinessEmail) } } },
      async (request) => ({
        body: await businessEmailAddresses.create(request.ctx, request.body),
      }),
    );
    authed.put(
      '/business/mybusiness/email/:id',
      { schema: { params: IdParams, body: UpdateEmailRequest, response: { 200: answer(BusinessEmail) } } },
      async (request) => ({
        body: await businessEmailAddresses.update(request.ctx, request.params.id, request.body),
      }),
    );
    authed.delete(
      '/business/mybusiness/email/:id',
      { schema: { params: IdParams, response: { 200: answer(Deleted) } } },
      async (request) => ({
        body: await businessEmailAddresses.remove(request.ctx, request.params.id),
      }),
    );

    authed.get(
      '/business/mybusiness/features',
      { schema: { response: { 200: answer(Features) } } },
      async (request) => ({
        body: await getFeatures(request.ctx),
      }),
    );

    authed.delete(
      '/business/clear/cache',
      { schema: { response: { 200: answer(CacheCleared) } } },
      async (request) => ({
        body: await clearCache(request.ctx),
      }),
    );
  });
};
