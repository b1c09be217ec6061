import {
  answer,
  ConfirmSignupRequest,
  EmailVerified,
  isValidEmail,
  LinkSent,
  MobileCodeSent,
  MobileVerified,
  RegisterAnswer,
  RegisterForm,
  RegisterRequest,
  ResendLinkRequest,
  SendMobileCodeRequest,
  SignupStarted,
  ValidateEmailRequest,
  ValidEmail,
  VerifyEmailRequest,
  VerifyMobileRequest,
} from '@switchboard/shared';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError } from '../../errors.ts';
import { verificationSmsFor } from '../../integrations/sms/verification-sms.ts';
import { ipKey } from '../../lib/limiter.ts';
import { requireBusiness, resolveActor } from '../../plugins/auth.ts';
import { checkForm, issueFormToken } from './form-guard.ts';
import { sendMobileCode, verifyMobileCode } from './mobile.ts';
import { checkSignupEmail, confirmSignup, resendLink, spend, startSignup, verifyEmail } from './service.ts';

/** Sign-up, email confirmation and mobile verification: the public routes are limited per IP, email and phone. */
export const signupRoutes: FastifyPluginAsyncZod = async (app) => {
  const ctx = { db: app.db, config: app.config, mailer: app.mailer, limiter: app.limiter, jobs: app.jobs };
  const sms = verificationSmsFor(app.config);
  const { signup, jwtSecret } = app.config;
  const perIp = { name: 'signup_ip', points: signup.maxPerIp, windowSeconds: 3600 };
  const confirmPerIp = { name: 'signup_confirm_ip', points: 30, windowSeconds: 600 };

  const signupOpen = () => {
    if (!signup.enabled) {
      throw new AppError(
        'forbidden',
        'New sign-ups are closed on this Switchboard. Ask whoever runs it to add your business.',
      );
    }
  };

  app.get('/business/register/form', { schema: { response: { 200: answer(RegisterForm) } } }, async () => {
    signupOpen();
    return { body: { form_token: await issueFormToken(jwtSecret), min_seconds: signup.minSeconds } };
  });

  // Step one: the form. A code goes to the address (or, when it has an account, an email saying so); the
  // answer is the same either way. Sending the form again sends a new code.
  app.post(
    '/business/register',
    { schema: { body: RegisterRequest, response: { 200: answer(SignupStarted) } } },
    async (request) => {
      signupOpen();
      await spend(app.limiter, perIp, ipKey(request.ip), 'sign-ups from this network');
      await checkForm(jwtSecret, request.body, signup.minSeconds);
      return { body: await startSignup(ctx, request.body, { ip: request.ip }) };
    },
  );

  // Step two: the emailed code creates the business and signs its owner in.
  app.post(
    '/business/register/confirm',
    { schema: { body: ConfirmSignupRequest, response: { 200: answer(RegisterAnswer) } } },
    async (request) => {
      signupOpen();
      await spend(app.limiter, confirmPerIp, ipKey(request.ip), 'attempts');
      const body = await confirmSignup(ctx, request.body, {
        ip: request.ip,
        userAgent: request.headers['user-agent'],
      });
      return { body };
    },
  );

  // Signed in: a new link for the selected business. Signed out: a new link for the business an old link was for.
  app.put(
    '/business/register/resend-link',
    { schema: { body: ResendLinkRequest, response: { 200: answer(LinkSent) } } },
    async (request) => {
      const header = request.headers.authorization;
      const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
      const actor = token ? await resolveActor(app, token) : null;
      const businessId = actor ? requireBusiness(actor).business_id : null;
      const body = await resendLink(ctx, { businessId, secret: request.body?.secret, ip: request.ip });
      return { body };
    },
  );

  // The emailed link's page: no login needed, the secret is the proof (it may be opened in another browser).
  app.put(
    '/business/mybusiness/verify',
    { schema: { body: VerifyEmailRequest, response: { 200: answer(EmailVerified) } } },
    async (request) => {
      await spend(
        app.limiter,
        { name: 'verify_ip', points: 30, windowSeconds: 600 },
        ipKey(request.ip),
        'attempts',
      );
      const body = await verifyEmail(ctx, request.body.secret);
      app.events.emit('account.changed', { business_id: body.business_id });
      return { body };
    },
  );

  // Needs no login: the sign-up form asks it. The answer is the same whether or not the address has an account.
  app.put(
    '/business/validators/email',
    { schema: { body: ValidateEmailRequest, response: { 200: answer(ValidEmail) } } },
    async (request) => {
      const { email } = request.body;
      if (!isValidEmail(email)) throw new AppError('unprocessable', `${email} is not a valid email`);
      await checkSignupEmail(ctx, email, request.ip);
      return { body: { email, valid: true as const } };
    },
  );

  app.register(async (scope) => {
    const authed = scope.withTypeProvider<ZodTypeProvider>();
    authed.addHook('onRequest', authed.authenticate);

    authed.put(
      '/business/verification/mobile/send-code',
      { schema: { body: SendMobileCodeRequest, response: { 200: answer(MobileCodeSent) } } },
      async (request) => ({
        body: await sendMobileCode(
          { ...ctx, actor: request.actor, sms },
          { mobile: request.body.mobile, ip: request.ip },
        ),
      }),
    );

    authed.put(
      '/business/verification/mobile/verify',
      { schema: { body: VerifyMobileRequest, response: { 200: answer(MobileVerified) } } },
      async (request) => ({
        body: await verifyMobileCode({ ...ctx, actor: request.actor }, request.body),
      }),
    );
  });
};
