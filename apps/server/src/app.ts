import { randomUUID } from 'node:crypto';
import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import type { Database } from '@switchboard/db';
import { answer, HealthAnswer, PublicConfig } from '@switchboard/shared';
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import helmet from 'helmet';
import { emailChannel } from './channels/email/smtp-plugin.ts';
import { createAdapterRegistry } from './channels/registry.ts';
import type { InboundSink } from './channels/types.ts';
import { widgetChannel } from './channels/widget/plugin.ts';
import type { Config } from './config.ts';
import { decorateContext } from './context.ts';
import { createEventBus } from './events/bus.ts';
import { registerListeners } from './events/listeners/index.ts';
import { billingFor } from './integrations/stripe/billing.ts';
import { paymentsFor } from './integrations/stripe/payments.ts';
import { startWorkers } from './jobs/workers.ts';
import { businessCachePlugin } from './lib/cache.ts';
import { appCsp, cspHeader, reportOnlyCsp } from './lib/csp.ts';
import { createLimiter } from './lib/limiter.ts';
import { requestLogFields } from './lib/log-fields.ts';
import { adminRoutes } from './modules/admin/routes.ts';
import { autoReplyDelay } from './modules/ai/auto-reply.ts';
import { aiRoutes } from './modules/ai/routes.ts';
import { analyticsRoutes } from './modules/analytics/routes.ts';
import { authRoutes } from './modules/auth/routes.ts';
import { billingRoutes } from './modules/billing/routes.ts';
import { sandboxBillingRoutes } from './modules/billing/sandbox.ts';
import { businessRoutes } from './modules/businesses/routes.ts';
import { registerCallReplies } from './modules/calls/replies.ts';
import { callRoutes } from './modules/calls/routes.ts';
import { sandboxPhone } from './modules/calls/sandbox-phone.ts';
import { trackingNumberRoutes } from './modules/calls/tracking-numbers.ts';
import { channelRoutes } from './modules/channels/routes.ts';
import { channelWebhooks } from './modules/channels/webhooks.ts';
import { customerRoutes } from './modules/customers/routes.ts';
import { enquiryRoutes } from './modules/enquiries/routes.ts';
import { CSP_REPORT_PATH, cspReportRoutes } from './modules/feedback/csp.ts';
import { feedbackRoutes } from './modules/feedback/routes.ts';
import { registerFormReplies } from './modules/forms/replies.ts';
import { formSettingsRoutes, formWebhookRoutes } from './modules/forms/routes.ts';
import { invoiceRoutes } from './modules/invoices/routes.ts';
import { sandboxCheckoutRoutes } from './modules/invoices/sandbox-checkout.ts';
import { stripeWebhooks } from './modules/invoices/webhook.ts';
import { labelRoutes } from './modules/labels/routes.ts';
import { inboundEmailRoutes } from './modules/locations/inbound-email.ts';
import { intakeLimitRoutes } from './modules/locations/intake-limits.ts';
import { locationRoutes } from './modules/locations/routes.ts';
import { widgetSettingsRoutes } from './modules/locations/widget-settings.ts';
import { memberRoutes } from './modules/members/routes.ts';
import { receiveInbound } from './modules/messages/inbound.ts';
import { addDeliveryWarning, applyMessageStatus } from './modules/messages/outbound.ts';
import { createInboundWriter, type InboundWriter } from './modules/messages/pipeline/writer.ts';
import { messageRoutes } from './modules/messages/routes.ts';
import { noteRoutes } from './modules/notes/routes.ts';
import { pushRoutes } from './modules/notifications/routes.ts';
import { reviewLinkRoutes, reviewRoutes } from './modules/reviews/routes.ts';
import { sandboxRoutes } from './modules/sandbox/routes.ts';
import { setupRoutes } from './modules/setup/routes.ts';
import { signupRoutes } from './modules/signup/routes.ts';
import { templateRoutes } from './modules/templates/routes.ts';
import { uploadRoutes } from './modules/uploads/routes.ts';
import { userRoutes } from './modules/users/routes.ts';
import { authPlugin } from './plugins/auth.ts';
import { errorsPlugin } from './plugins/errors.ts';
import { jobsPlugin } from './plugins/jobs.ts';
import { mailerPlugin } from './plugins/mailer.ts';
import { observabilityPlugin } from './plugins/observability.ts';
import { realtimePlugin } from './plugins/realtime.ts';
import { answerSerializer } from './plugins/serialization.ts';
import { refuseUnstorablePathAndQuery, validatorCompiler } from './plugins/validation.ts';
import { webPlugin } from './plugins/web.ts';

export type AppDeps = { database: Database };

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route as registered (method, url, schema): what the input fuzz test walks. */
    routeTable: readonly RouteOptions[];
    /** Stores inbound messages in batches (group commit): the one writer of the inbound pipeline. */
    inboundWriter: InboundWriter;
  }
}

/** Builds the whole application without listening: external plugins, then app plugins, then module routes. */
export async function buildApp(config: Config, deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    // One line per request with its method, route and URL (query text hidden), never the client's address.
    logger:
      config.logLevel === 'silent'
        ? false
        : { level: config.logLevel, serializers: { req: requestLogFields as never } },
    bodyLimit: config.bodyLimitBytes,
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    // Only configured proxies may name the client's address (per-IP limits depend on it).
    trustProxy: config.trustProxy.length ? config.trustProxy : false,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.addHook('preValidation', refuseUnstorablePathAndQuery);
  const routeTable: RouteOptions[] = [];
  app.addHook('onRoute', (route) => {
    routeTable.push(route);
  });
  app.decorate('routeTable', routeTable);
  app.setSerializerCompiler(answerSerializer({ strict: config.strictAnswers }));

  app.decorate('config', config);
  app.decorate('database', deps.database);
  app.decorate('db', deps.database.db);
  app.decorate('payments', paymentsFor(config));
  app.decorate('billing', billingFor(config));
  decorateContext(app);

  const csp = appCsp(config, CSP_REPORT_PATH);
  // Security headers on every response, from helmet built once: its Fastify wrapper rebuilt it (parsing the
  // policy again) on every request, about 6% of a webhook's CPU.
  const securityHeaders = helmet({
    contentSecurityPolicy: { useDefaults: false, directives: csp },
    crossOriginEmbedderPolicy: false,
  });
  app.addHook('onRequest', (request, reply, done) =>
    securityHeaders(request.raw, reply.raw, (error) => done(error as Error | undefined)),
  );
  await app.register(cookie);
  await app.register(multipart, { limits: { fileSize: config.uploadMaxBytes, files: 10, fields: 50 } });
  await app.register(errorsPlugin);
  const limiter = await createLimiter({ redisUrl: config.redisUrl, log: app.log });
  app.decorate('limiter', limiter);
  app.addHook('onClose', () => limiter.close());
  await app.register(authPlugin);
  app.decorate('events', createEventBus());
  await app.register(jobsPlugin);
  await app.register(mailerPlugin);
  await app.register(realtimePlugin);
  await app.register(businessCachePlugin);
  await app.register(observabilityPlugin);
  const inboundWriter = createInboundWriter(deps.database, config, {
    jobs: app.jobs,
    autoReplyDelay: (locationId) => autoReplyDelay(app, locationId),
    log: app.log,
  });
  app.decorate('inboundWriter', inboundWriter);
  // Before the database closes: what was handed in is committed (and its webhook answered) first.
  app.addHook('preClose', () => inboundWriter.drain());
  const registry = createAdapterRegistry(config);
  app.decorate('channels', registry);
  app.decorate('inbound', {
    receive: async (message) => {
      const result = await receiveInbound(app, message);
      app.metrics.inbound.inc({
        provider: message.provider,
        outcome: result.duplicate ? 'duplicate' : 'stored',
      });
      return result;
    },
    status: ({ message_id, status, error }) =>
      applyMessageStatus(app, { id: message_id }, status, error === undefined ? {} : { error }),
    warning: ({ message_id, warning }) => addDeliveryWarning(app, message_id, warning),
  } satisfies InboundSink);

  await app.register(
    async (api) => {
      api.get('/health', { schema: { response: { 200: answer(HealthAnswer) } } }, async () => ({
        body: { ok: true as const, engine: deps.database.engine },
      }));
      api.get('/public/config', { schema: { response: { 200: answer(PublicConfig) } } }, async () => ({
        body: {
          sandbox: config.sandbox,
          marketing_script_url: config.marketingScriptUrl ?? null,
          analytics_url: config.analyticsUrl ?? null,
        },
      }));
      await api.register(authRoutes);
      await api.register(userRoutes);
      await api.register(businessRoutes);
      await api.register(signupRoutes);
      await api.register(billingRoutes);
      await api.register(adminRoutes);
      await api.register(locationRoutes);
      await api.register(intakeLimitRoutes);
      await api.register(uploadRoutes);
      await api.register(feedbackRoutes);
      await api.register(cspReportRoutes);
      await api.register(enquiryRoutes);
      await api.register(messageRoutes);
      await api.register(sandboxRoutes);
      await api.register(templateRoutes);
      await api.register(customerRoutes);
      await api.register(noteRoutes);
      await api.register(labelRoutes);
      await api.register(callRoutes);
      await api.register(sandboxPhone);
      await api.register(trackingNumberRoutes);
      await api.register(memberRoutes);
      await api.register(pushRoutes);
      await api.register(analyticsRoutes);
      await api.register(formSettingsRoutes);
      await api.register(channelRoutes);
      await api.register(widgetSettingsRoutes);
      await api.register(inboundEmailRoutes);
      await api.register(aiRoutes);
      await api.register(invoiceRoutes);
      await api.register(sandboxCheckoutRoutes);
      await api.register(sandboxBillingRoutes);
      await api.register(reviewRoutes);
      await api.register(setupRoutes);
    },
    { prefix: '/api/v1' },
  );
  await app.register(emailChannel);
  await app.register(channelWebhooks);
  await app.register(stripeWebhooks);
  await app.register(reviewLinkRoutes);
  await app.register(widgetChannel);
  registerCallReplies(app);
  registerFormReplies(app);

  await app.register(formWebhookRoutes);
  await app.register(webPlugin, { reportOnlyCsp: cspHeader(reportOnlyCsp(csp)) });
  // Last: every adapter, policy, route and socket namespace a listener or worker may need exists by now.
  registerListeners(app);
  await startWorkers(app);
  return app;
}
