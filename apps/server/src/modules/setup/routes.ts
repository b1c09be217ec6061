import { answer, SetupChecklist, UpdateSetupRequest } from '@switchboard/shared';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { getSetup, updateSetup } from './service.ts';

/** The set-up checklist a new business is led through: read by everyone, put away and back by owners. */
export const setupRoutes: FastifyPluginAsyncZod = async (app) => {
  app.register(async (scope) => {
    const authed = scope.withTypeProvider<ZodTypeProvider>();
    authed.addHook('onRequest', authed.authenticate);

    authed.get(
      '/business/setup',
      { schema: { response: { 200: answer(SetupChecklist) } } },
      async (request) => ({
        body: await getSetup(request.ctx),
      }),
    );

    authed.put(
      '/business/setup',
      { schema: { body: UpdateSetupRequest, response: { 200: answer(SetupChecklist) } } },
      async (request) => ({
        body: await updateSetup(request.ctx, request.body),
      }),
    );
  });
};
