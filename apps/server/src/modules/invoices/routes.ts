import {
  answer,
  CheckoutAnswer,
  Deleted,
  IdParams,
  Invoice,
  InvoiceBranding,
  InvoiceBrandingPreviewRequest,
  InvoiceBrandingRequest,
  InvoicePage,
  InvoicePatchRequest,
  InvoiceRequest,
  InvoicesExportQuery,
  InvoicesQuery,
  isUuid,
  LocationSurcharge,
  PublicInvoice,
  RefundInvoiceRequest,
  SecretParams,
  SendInvoiceRequest,
  StripeAccount,
  StripeConnectLink,
  SurchargeRequest,
} from '@switchboard/shared';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../errors.ts';
import { sendFile } from '../../lib/file-response.ts';
import { downloadActor, requireBusiness, requireOwner } from '../../plugins/auth.ts';
import { requireFeature } from '../admin/service.ts';
import { imageTooLarge } from '../businesses/service.ts';
import { readSingleFile } from '../uploads/multipart.ts';
import {
  brandingPreviewPdf,
  getBranding,
  resetBranding,
  setBrandingLogo,
  updateBranding,
} from './branding.ts';
import { exportInvoices } from './export.ts';
import { fontBytes, isFontId } from './fonts.ts';
import {
  invoiceBySecret,
  refundInvoice,
  refundUnowed,
  startInvoiceCheckout,
  stripeAccount,
  stripeConnectLink,
  toggleSurcharge,
} from './payments.ts';
import { invoicePdf } from './pdf.ts';
import { publicInvoice, publicInvoiceParts } from './public.ts';
import { sendInvoice } from './sending.ts';
import {
  createInvoice,
  deleteInvoice,
  getInvoice,
  listInvoices,
  loadInvoice,
  updateInvoice,
  voidInvoice,
} from './service.ts';

const LOGO_FIELD = 'image';

/** Invoices, their branding, Stripe Connect and card surcharges (staff), and the customer's pay page (public). */
export const invoiceRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(async (scope) => {
    const authed = scope.withTypeProvider<ZodTypeProvider>();
    authed.addHook('onRequest', authed.authenticate);
    authed.addHook('preHandler', async (request) => requireFeature(request.ctx, 'invoices'));

    authed.get(
      '/business/customer-invoices',
      { schema: { querystring: InvoicesQuery, response: { 200: answer(InvoicePage) } } },
      async (request) => ({ body: await listInvoices(request.ctx, request.query) }),
    );
    authed.post(
      '/business/customer-invoices',
      { schema: { body: InvoiceRequest, response: { 200: answer(Invoice) } } },
      async (request) => ({ body: await createInvoice(request.ctx, request.body) }),
    );
    authed.get(
      '/business/customer-invoices/branding',
      { schema: { response: { 200: answer(InvoiceBranding) } } },
      async (request) => ({ body: await getBranding(request.ctx) }),
    );
    authed.put(
      '/business/customer-invoices/branding',
      { schema: { body: InvoiceBrandingRequest, response: { 200: answer(InvoiceBranding) } } },
      async (request) => ({ body: await updateBranding(request.ctx, request.body) }),
    );
    authed.delete(
      '/business/customer-invoices/branding',
      { schema: { response: { 200: answer(InvoiceBranding) } } },
      async (request) => ({ body: await resetBranding(request.ctx) }),
    );
    authed.post(
      '/business/customer-invoices/branding/preview',
      { schema: { body: InvoiceBrandingPreviewRequest } },
      async (request, reply) => {
        const pdf = await brandingPreviewPdf(request.ctx, request.body);
        return sendFile(
          reply,
          { name: 'invoice-preview.pdf', content_type: 'application/pdf', bytes: pdf },
          { cache: 'no-store' },
        );
      },
    );
    authed.put(
      '/business/customer-invoices/branding/icon',
      { schema: { response: { 200: answer(InvoiceBranding) } } },
      async (request) => {
        // Checked before the upload is read, so staff are refused without sending megabytes first.
        requireOwner(request.actor, 'change invoice branding');
        const file = await readSingleFile(request, {
          field: LOGO_FIELD,
          maxBytes: app.config.imageMaxBytes,
          tooLarge: imageTooLarge,
        });
        return { body: await setBrandingLogo(request.ctx, file) };
      },
    );

    authed.get(
      '/business/customer-invoices/:id',
      { schema: { params: IdParams, response: { 200: answer(Invoice) } } },
      async (request) => ({ body: await getInvoice(request.ctx, request.params.id) }),
    );
    authed.put(
      '/business/customer-invoices/:id',
      { schema: { params: IdParams, body: InvoicePatchRequest, response: { 200: answer(Invoice) } } },
      async (request) => ({ body: await updateInvoice(request.ctx, request.params.id, request.body) }),
    );
    authed.delete(
      '/business/customer-invoices/:id',
      { schema: { params: IdParams, response: { 200: answer(Deleted) } } },
      async (request) => {
        await deleteInvoice(request.ctx, request.params.id);
        return { body: { id: request.params.id, deleted: true as const } };
      },
    );
    authed.post(
      '/business/customer-invoices/:id/send',
      { schema: { params: IdParams, body: SendInvoiceRequest, response: { 200: answer(Invoice) } } },
      async (request) => ({ body: await sendInvoice(request.ctx, request.params.id, request.body) }),
    );
    authed.post(
      '/business/customer-invoices/:id/void',
      { schema: { params: IdParams, response: { 200: answer(Invoice) } } },
      async (request) => ({ body: await voidInvoice(request.ctx, request.params.id) }),
    );
    authed.post(
      '/business/customer-invoices/:id/refund',
      { schema: { params: IdParams, body: RefundInvoiceRequest, response: { 200: answer(Invoice) } } },
      async (request) => ({ body: await refundInvoice(request.ctx, request.params.id, request.body) }),
    );
    authed.post(
      '/business/customer-invoices/:id/refund-unowed',
      { schema: { params: IdParams, response: { 200: answer(Invoice) } } },
      async (request) => ({ body: await refundUnowed(request.ctx, request.params.id) }),
    );
    authed.get(
      '/business/mybusiness/stripe-connect-link',
      { schema: { response: { 200: answer(StripeConnectLink) } } },
      async (request) => ({ body: await stripeConnectLink(request.ctx) }),
    );
    authed.get(
      '/business/mybusiness/stripe-account',
      { schema: { response: { 200: answer(StripeAccount) } } },
      async (request) => ({ body: await stripeAccount(request.ctx) }),
    );
    authed.post(
      '/business/toggle-stripe-charge-rate/:id',
      { schema: { params: IdParams, body: SurchargeRequest, response: { 200: answer(LocationSurcharge) } } },
      async (request) => {
        if (!isUuid(request.params.id)) throw new AppError('not_found', 'Location not found.');
        return { body: await toggleSurcharge(request.ctx, request.params.id, request.body) };
      },
    );
  });

  // Downloads the browser fetches by itself (a link): the bearer token or the app's access cookie.
  await app.register(async (scope) => {
    const downloads = scope.withTypeProvider<ZodTypeProvider>();
    downloads.addHook('onRequest', async (request) => {
      request.actor = await downloadActor(app, request);
    });
    downloads.addHook('preHandler', async (request) => requireFeature(request.ctx, 'invoices'));
    downloads.get(
      '/business/customer-invoices/export',
      { schema: { querystring: InvoicesExportQuery } },
      async (request, reply) => {
        const csv = await exportInvoices(request.ctx, request.query);
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', 'attachment; filename="invoices.csv"')
          .header('cache-control', 'no-store')
          .send(csv);
      },
    );

    downloads.get(
      '/business/customer-invoices/:id/pdf',
      { schema: { params: IdParams } },
      async (request, reply) => {
        const a = requireBusiness(request.actor);
        const invoice = await loadInvoice(app.db, a, request.params.id);
        const pdf = await invoicePdf(request.ctx, await publicInvoiceParts(app, invoice));
        return sendFile(
          reply,
          { name: `${invoice.number}.pdf`, content_type: 'application/pdf', bytes: pdf },
          { inline: false },
        );
      },
    );
  });

  // ── The customer's pay page: no login; the link's secret is the key ─────────────────────────────────────

  app.get(
    '/business/invoices/secret/:id',
    {
      schema: {
        params: SecretParams,
        querystring: z.strictObject({ preview: z.enum(['1', 'true']).optional() }),
        response: { 200: answer(PublicInvoice) },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { body: await publicInvoice(app, request.params.id, Boolean(request.query.preview)) };
    },
  );
  app.post(
    '/business/invoices/secret/:id/checkout',
    { schema: { params: SecretParams, response: { 200: answer(CheckoutAnswer) } } },
    async (request) => ({ body: await startInvoiceCheckout(app, request.params.id, request.ip) }),
  );
  app.get(
    '/business/invoices/secret/:id/pdf',
    { schema: { params: SecretParams } },
    async (request, reply) => {
      const invoice = await invoiceBySecret(app, request.params.id);
      const pdf = await invoicePdf(request.ctx, await publicInvoiceParts(app, invoice));
      return sendFile(
        reply,
        { name: `${invoice.number}.pdf`, content_type: 'application/pdf', bytes: pdf },
        { inline: false, cache: 'no-store' },
      );
    },
  );

  // The fonts the pay page and the branding preview use, shipped with the product (no font service).
  app.get(
    '/public/fonts/:font/:weight',
    {
      schema: {
        params: z.strictObject({ font: z.string().max(40), weight: z.enum(['regular.ttf', 'bold.ttf']) }),
      },
    },
    async (request, reply) => {
      const { font, weight } = request.params;
      if (!isFontId(font)) throw new AppError('not_found', 'Font not found.');
      return reply
        .header('content-type', 'font/ttf')
        .header('cache-control', 'public, max-age=31536000, immutable')
        .send(fontBytes(font, weight === 'bold.ttf' ? 'bold' : 'regular'));
    },
  );
};
