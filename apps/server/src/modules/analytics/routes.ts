import {
  AnalyticsQuery,
  answer,
  CallReport,
  EnquiryReport,
  type FeatureFlag,
  InvoiceReport,
  ResponseReport,
  ReviewReport,
} from '@switchboard/shared';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireFeature } from '../admin/service.ts';
import { invoiceReport, reviewReport } from './follow-ups.ts';
import { callReport, enquiryReport, responseReport } from './reports.ts';

/**
 * The reports (the web app calls them at `ANALYTICS_URL`, this server's `/api/v1/analytics` unless an operator
 * serves them elsewhere), for the signed-in person's business and the locations they work at. The reports of
 * calls, review requests and invoices belong to those features: refused while one is turned off.
 */
export const analyticsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);
  const onlyWith = (flag: FeatureFlag) => async (request: FastifyRequest) =>
    requireFeature(request.ctx, flag);
  app.get(
    '/analytics/enquiries',
    { schema: { querystring: AnalyticsQuery, response: { 200: answer(EnquiryReport) } } },
    async (request) => ({ body: await enquiryReport(request.ctx, request.query) }),
  );
  app.get(
    '/analytics/calls',
    {
      preHandler: onlyWith('calls'),
      schema: { querystring: AnalyticsQuery, response: { 200: answer(CallReport) } },
    },
    async (request) => ({ body: await callReport(request.ctx, request.query) }),
  );
  app.get(
    '/analytics/response-times',
    { schema: { querystring: AnalyticsQuery, response: { 200: answer(ResponseReport) } } },
    async (request) => ({ body: await responseReport(request.ctx, request.query) }),
  );
  app.get(
    '/analytics/reviews',
    {
      preHandler: onlyWith('reviews'),
      schema: { querystring: AnalyticsQuery, response: { 200: answer(ReviewReport) } },
    },
    async (request) => ({ body: await reviewReport(request.ctx, request.query) }),
  );
  app.get(
    '/analytics/invoices',
    {
      preHandler: onlyWith('invoices'),
      schema: { querystring: AnalyticsQuery, response: { 200: answer(InvoiceReport) } },
    },
    async (request) => ({ body: await invoiceReport(request.ctx, request.query) }),
  );
};
