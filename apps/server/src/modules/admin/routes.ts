import {
  AdminBusiness,
  AdminBusinessPage,
  AdminBusinessPatch,
  AdminBusinessQuery,
  AdminNumber,
  AdminNumberList,
  AdminNumberPatch,
  AuditPage,
  AuditQuery,
  answer,
  IdParams,
  OpenedBusiness,
  PageQuery,
} from '@switchboard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { listNumbersAsAdmin, setRegistrationAsAdmin } from '../channels/platform-numbers.ts';
import { getBusiness, listAudit, listBusinesses, openBusiness, updateBusinessAsAdmin } from './service.ts';

/** The super admin console's API, and the owner's own audit log. */
export const adminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);

  app.get(
    '/admin/businesses',
    { schema: { querystring: AdminBusinessQuery, response: { 200: answer(AdminBusinessPage) } } },
    async (request) => ({ body: await listBusinesses(request.ctx, request.query) }),
  );
  app.get(
    '/admin/businesses/:id',
    { schema: { params: IdParams, response: { 200: answer(AdminBusiness) } } },
    async (request) => ({ body: await getBusiness(request.ctx, request.params.id) }),
  );
  app.patch(
    '/admin/businesses/:id',
    { schema: { params: IdParams, body: AdminBusinessPatch, response: { 200: answer(AdminBusiness) } } },
    async (request) => ({ body: await updateBusinessAsAdmin(request.ctx, request.params.id, request.body) }),
  );
  app.post(
    '/admin/businesses/:id/open',
    { schema: { params: IdParams, response: { 200: answer(OpenedBusiness) } } },
    async (request) => ({ body: await openBusiness(request.ctx, request.params.id) }),
  );
  app.get(
    '/admin/businesses/:id/numbers',
    { schema: { params: IdParams, response: { 200: answer(AdminNumberList) } } },
    async (request) => ({ body: await listNumbersAsAdmin(request.ctx, request.params.id) }),
  );
  app.patch(
    '/admin/numbers/:id',
    { schema: { params: IdParams, body: AdminNumberPatch, response: { 200: answer(AdminNumber) } } },
    async (request) => ({
      body: await setRegistrationAsAdmin(request.ctx, request.params.id, request.body.registration),
    }),
  );
  app.get(
    '/admin/audit-log',
    { schema: { querystring: AuditQuery, response: { 200: answer(AuditPage) } } },
    async (request) => ({ body: await listAudit(request.ctx, request.query, 'admin') }),
  );
  app.get(
    '/business/audit-log',
    { schema: { querystring: PageQuery, response: { 200: answer(AuditPage) } } },
    async (request) => ({ body: await listAudit(request.ctx, request.query, 'business') }),
  );
};
