import { randomUUID } from 'node:crypto';
import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import multipart from '@fastify/multipart';
import type { Database } from '@switchboard/db';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import { authRoutes } from './modules/auth/routes.ts';
import { userRoutes } from './modules/users/routes.ts';
import { authPlugin } from './plugins/auth.ts';
import { errorsPlugin } from './plugins/errors.ts';
import { webPlugin } from './plugins/web.ts';

export type AppDeps = { database: Database };

/** Builds the whole application without listening: external plugins, then app plugins, then module routes. */
export async function buildApp(config: Config, deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: config.logLevel === 'silent' ? false : { level: config.logLevel },
    bodyLimit: config.bodyLimitBytes,
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    trustProxy: true,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.decorate('config', config);
  app.decorate('database', deps.database);
  app.decorate('db', deps.database.db);

  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: [
          "'self'",
          ...(config.marketingScriptUrl ? [new URL(config.marketingScriptUrl).origin] : []),
        ],
        // antd writes its styles at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        connectSrc: ["'self'", 'ws:', 'wss:'],
        mediaSrc: ["'self'", 'blob:'],
        frameAncestors: ["'self'"],
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  await app.register(cookie);
  await app.register(multipart, { limits: { fileSize: config.uploadMaxBytes, files: 10, fields: 50 } });
  await app.register(errorsPlugin);
  await app.register(authPlugin);

  await app.register(
    async (api) => {
      api.get('/health', async () => ({ body: { ok: true, engine: deps.database.engine } }));
      api.get('/public/config', async () => ({
        body: { sandbox: config.sandbox, marketing_script_url: config.marketingScriptUrl ?? null },
      }));
      await api.register(authRoutes);
      await api.register(userRoutes);
    },
    { prefix: '/api/v1' },
  );

  await app.register(webPlugin);
  return app;
}
