import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../errors.ts';
import { createLoginLimiter } from './rate-limit.ts';
import { changePassword, login, logout, switchSelection } from './service.ts';

const LoginRequest = z.object({
  email: z.string().trim().min(1, 'Please enter your email').max(320),
  password: z.string().min(1, 'Please enter your password').max(1024),
});

const uuidHeader = z.uuid().optional().catch(undefined);

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const limiter = createLoginLimiter(app.config);
  const ctx = { db: app.db, config: app.config };

  app.post(
    '/auth/login',
    { schema: { body: LoginRequest, headers: z.looseObject({ bid: uuidHeader, lid: uuidHeader }) } },
    async (request) => {
      const { email, password } = request.body;
      await limiter.check(request.ip, email);
      try {
        const result = await login(ctx, {
          email,
          password,
          businessId: request.headers.bid,
          locationId: request.headers.lid,
          ip: request.ip,
          userAgent: request.headers['user-agent'],
        });
        await limiter.succeeded(email);
        return { body: result };
      } catch (error) {
        if (error instanceof AppError && error.code === 'invalid_credentials') await limiter.failed(email);
        throw error;
      }
    },
  );

  app.register(async (scope) => {
    const authed = scope.withTypeProvider<ZodTypeProvider>();
    authed.addHook('onRequest', authed.authenticate);

    authed.put('/user/logout', async (request) => {
      await logout(ctx, request.actor);
      app.events.emit('session.revoked', { session_id: request.actor.session_id });
      return { body: { logged_out: true } };
    });

    authed.put(
      '/user/switch',
      { schema: { body: z.object({ business_id: z.uuid(), location_id: z.uuid().optional() }) } },
      async (request) => ({ body: await switchSelection(ctx, request.actor, request.body) }),
    );

    authed.put(
      '/user/password',
      {
        schema: {
          body: z.object({
            current_password: z.string().min(1).max(1024),
            new_password: z.string().min(8, 'must be at least 8 characters').max(1024),
          }),
        },
      },
      async (request) => {
        const result = await changePassword(ctx, request.actor, request.body);
        app.events.emit('user.sessions_revoked', { user_id: request.actor.user_id });
        return { body: result };
      },
    );
  });
};
