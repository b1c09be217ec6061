import {
  answer,
  LoginAnswer,
  LoginHeaders,
  LoginRequest,
  LogoutAnswer,
  PasswordRequest,
  PasswordResetCheck,
  PasswordResetComplete,
  PasswordResetOpen,
  PasswordResetRequest,
  PasswordResetSent,
  SwitchAnswer,
  SwitchRequest,
  UnlockQuery,
} from '@switchboard/shared';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  DEVICE_COOKIE,
  type Device,
  deviceCookieOptions,
  deviceToken,
  newDevice,
  readDevice,
  readUnlock,
  UNLOCK_LINK_MINUTES,
  unlockToken,
} from './device.ts';
import { checkPasswordReset, completePasswordReset, requestPasswordReset } from './password-reset.ts';
import { type AttemptKey, createLoginLimiter } from './rate-limit.ts';
import { changePassword, login, logout, switchSelection } from './service.ts';

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const limiter = createLoginLimiter(app.config, app.limiter);
  const ctx = { db: app.db, config: app.config };
  const resetCtx = { ...ctx, limiter: app.limiter, jobs: app.jobs, mailer: app.mailer };
  const { jwtSecret, publicUrl } = app.config;
  const secureCookies = publicUrl.startsWith('https:');

  async function mailUnlockLink(user: { id: string; email: string }) {
    const link = `${publicUrl}/api/v1/auth/unlock?token=${await unlockToken(jwtSecret, user.id)}`;
    const minutes = Math.round(app.config.login.windowSeconds / 60);
    await app.mailer.queue({
      to: user.email,
      subject: 'Sign-in attempts paused on your Switchboard account',
      text: [
        `Someone tried to sign in to Switchboard as ${user.email} several times with a wrong password, so signing in with this email is paused for ${minutes} minutes.`,
        '',
        'Browsers you have signed in from before can still sign in with your password.',
        `If this was you and you want to sign in from another browser now, open this link in that browser (it works for ${UNLOCK_LINK_MINUTES} minutes):`,
        link,
        '',
        'If it was not you, nobody got in: the password was wrong each time. You can ignore this email, or change your password if you are worried.',
      ].join('\n'),
    });
  }

  app.post(
    '/auth/login',
    { schema: { body: LoginRequest, headers: LoginHeaders, response: { 200: answer(LoginAnswer) } } },
    async (request, reply) => {
      const { email, password } = request.body;
      await limiter.checkIp(request.ip);
      const device = await readDevice(jwtSecret, request.cookies[DEVICE_COOKIE]);
      let attempt: AttemptKey = { email };
      const { user_id, ...result } = await login(ctx, {
        email,
        password,
        businessId: request.headers.bid,
        locationId: request.headers.lid,
        ip: request.ip,
        userAgent: request.headers['user-agent'],
        beforeVerify: async (user) => {
          // A browser this person signed in from before spends its own allowance, not the email's.
          if (user && device?.user_id === user.id) attempt = { device: device.device_id };
          const refused = await limiter.spend(attempt);
          if (!refused) return;
          if (refused.firstRefusal && user) await mailUnlockLink(user);
          throw refused.error;
        },
      });
      await limiter.succeeded(attempt);
      const known: Device = device?.user_id === user_id ? device : newDevice(user_id);
      reply.setCookie(DEVICE_COOKIE, await deviceToken(jwtSecret, known), deviceCookieOptions(secureCookies));
      return { body: result };
    },
  );

  // The emailed link: this browser becomes one that may sign in while the email's attempts are paused.
  app.get(
    '/auth/unlock',
    // A redirect, not JSON: no answer schema.
    { schema: { querystring: UnlockQuery } },
    async (request, reply) => {
      const userId = await readUnlock(jwtSecret, request.query.token);
      if (!userId) return reply.redirect('/?unlock=expired', 303);
      reply.setCookie(
        DEVICE_COOKIE,
        await deviceToken(jwtSecret, newDevice(userId)),
        deviceCookieOptions(secureCookies),
      );
      return reply.redirect('/?unlock=ok', 303);
    },
  );

  // Forgotten passwords: no login (that is the point); the link's secret is the proof.
  app.post(
    '/auth/password-reset',
    { schema: { body: PasswordResetRequest, response: { 200: answer(PasswordResetSent) } } },
    async (request) => ({
      body: await requestPasswordReset(resetCtx, { email: request.body.email, ip: request.ip }),
    }),
  );

  app.post(
    '/auth/password-reset/check',
    { schema: { body: PasswordResetCheck, response: { 200: answer(PasswordResetOpen) } } },
    async (request) => ({
      body: await checkPasswordReset(resetCtx, { token: request.body.token, ip: request.ip }),
    }),
  );

  app.post(
    '/auth/password-reset/complete',
    { schema: { body: PasswordResetComplete, response: { 200: answer(LoginAnswer) } } },
    async (request) => {
      const { email, user_id, ...session } = await completePasswordReset(resetCtx, request.body, {
        ip: request.ip,
        userAgent: request.headers['user-agent'],
      });
      // The new password works at once, even where wrong guesses had paused signing in with this email.
      await limiter.succeeded({ email });
      app.events.emit('user.sessions_revoked', { user_id });
      return { body: session };
    },
  );

  app.register(async (scope) => {
    const authed = scope.withTypeProvider<ZodTypeProvider>();
    authed.addHook('onRequest', authed.authenticate);

    authed.put('/user/logout', { schema: { response: { 200: answer(LogoutAnswer) } } }, async (request) => {
      await logout(request.ctx);
      app.events.emit('session.revoked', { session_id: request.actor.session_id });
      return { body: { logged_out: true as const } };
    });

    authed.put(
      '/user/switch',
      { schema: { body: SwitchRequest, response: { 200: answer(SwitchAnswer) } } },
      async (request) => ({ body: await switchSelection(request.ctx, request.body) }),
    );

    authed.put(
      '/user/password',
      { schema: { body: PasswordRequest, response: { 200: answer(LoginAnswer) } } },
      async (request) => {
        const result = await changePassword(request.ctx, request.body);
        app.events.emit('user.sessions_revoked', { user_id: request.actor.user_id });
        return { body: result };
      },
    );
  });
};
