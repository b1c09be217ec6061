import {
  answer,
  BillingRedirect,
  ChangePlanRequest,
  DailyUsage,
  PortalLink,
  PromoCheck,
  SubscriptionView,
  ValidatePromoRequest,
} from '@switchboard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { billingPortal, changePlan, getSubscription, getUsage, validatePromo } from './service.ts';

export const billingRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);

  app.get(
    '/business/mybusiness/subscription',
    { schema: { response: { 200: answer(SubscriptionView) } } },
    async (request) => ({ body: await getSubscription(request.ctx) }),
  );

  app.get(
    '/business/mybusiness/usage',
    { schema: { response: { 200: answer(DailyUsage) } } },
    async (request) => ({ body: await getUsage(request.ctx) }),
  );

  app.put(
    '/business/mybusiness/change-subscription-plan',
    { schema: { body: ChangePlanRequest, response: { 200: answer(BillingRedirect) } } },
    async (request) => ({ body: await changePlan(request.ctx, request.body) }),
  );

  app.put(
    '/business/mybusiness/validate-promo-code',
    { schema: { body: ValidatePromoRequest, response: { 200: answer(PromoCheck) } } },
    async (request) => ({ body: await validatePromo(request.ctx, request.body) }),
  );

  app.post(
    '/business/mybusiness/billing-portal',
    { schema: { response: { 200: answer(PortalLink) } } },
    async (request) => ({ body: await billingPortal(request.ctx) }),
  );
};
