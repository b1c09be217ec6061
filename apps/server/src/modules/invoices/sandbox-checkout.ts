import { randomBytes } from 'node:crypto';
import { businesses, invoices } from '@switchboard/db';
import {
  answer,
  PAYABLE_INVOICE_STATUSES,
  SandboxCheckout,
  SandboxCheckoutAnswer,
  SandboxCheckoutRequest,
  toStripeAmount,
} from '@switchboard/shared';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../errors.ts';
import { sandboxStripeEvent, signStripeEvent } from '../../integrations/stripe/payments.ts';
import { amountDue } from './ledger.ts';
import { payUrl } from './service.ts';

const Params = z.strictObject({ id: z.string().max(100) });

async function sessionOf(app: FastifyInstance, id: string) {
  if (app.payments?.mode !== 'sandbox' || !/^cs_sandbox_[0-9a-f]{24}$/.test(id))
    throw new AppError('not_found', 'This payment page is not valid.');
  const [row] = await app.db
    .select({ invoice: invoices, business: businesses })
    .from(invoices)
    .innerJoin(businesses, eq(businesses.id, invoices.business_id))
    .where(eq(invoices.checkout_session_id, id));
  if (!row) throw new AppError('not_found', 'This payment page is not valid.');
  return row;
}

/**
 * The sandbox's stand-in for Stripe Checkout (sandbox mode without a Stripe key): a page that pays or declines,
 * then sends this server the same signed webhook Stripe would, through `POST /webhooks/stripe`.
 */
export const sandboxCheckoutRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/sandbox/checkout/:id',
    { schema: { params: Params, response: { 200: answer(SandboxCheckout) } } },
    async (request) => {
      const { invoice, business } = await sessionOf(app, request.params.id);
      return {
        body: {
          id: request.params.id,
          business_name: business.name,
          number: invoice.number,
          currency: invoice.currency,
          // What this session charges: what is due now.
          total_cents: invoice.checkout_amount_cents ?? amountDue(invoice),
          status: amountDue(invoice) > 0 ? ('open' as const) : ('complete' as const),
        },
      };
    },
  );

  app.post(
    '/sandbox/checkout/:id',
    {
      schema: {
        params: Params,
        body: SandboxCheckoutRequest,
        response: { 200: answer(SandboxCheckoutAnswer) },
      },
    },
    async (request) => {
      const { invoice, business } = await sessionOf(app, request.params.id);
      const pay = payUrl(app.config.publicUrl, invoice.secret);
      if (!PAYABLE_INVOICE_STATUSES.includes(invoice.status))
        throw new AppError('conflict', `Invoice ${invoice.number} cannot be paid: it is ${invoice.status}.`);
      const metadata = { invoice_id: invoice.id, business_id: invoice.business_id };
      // Stripe's amount for what this session was opened for, as Stripe would report it.
      const amount = toStripeAmount(invoice.checkout_amount_cents ?? amountDue(invoice), invoice.currency);
      const intent = `pi_sandbox_${randomBytes(12).toString('hex')}`;
      const event =
        request.body.outcome === 'pay'
          ? sandboxStripeEvent(
              'checkout.session.completed',
              {
                id: request.params.id,
                object: 'checkout.session',
                mode: 'payment',
                status: 'complete',
                payment_status: 'paid',
                amount_subtotal: amount,
                amount_total: amount,
                currency: invoice.currency.toLowerCase(),
                client_reference_id: invoice.id,
                metadata,
                payment_intent: intent,
              },
              business.stripe_account_id,
            )
          : sandboxStripeEvent(
              'payment_intent.payment_failed',
              {
                id: intent,
                object: 'payment_intent',
                amount,
                amount_received: 0,
                currency: invoice.currency.toLowerCase(),
                metadata,
                status: 'requires_payment_method',
                last_payment_error: {
                  type: 'card_error',
                  code: 'card_declined',
                  decline_code: 'generic_decline',
                  message: 'Your card was declined.',
                },
              },
              business.stripe_account_id,
            );
      const payload = JSON.stringify(event);
      const delivered = await app.inject({
        method: 'POST',
        url: '/webhooks/stripe',
        payload,
        headers: {
          'content-type': 'application/json',
          'stripe-signature': signStripeEvent(payload, app.payments!.webhookSecret),
        },
      });
      if (delivered.statusCode !== 200)
        throw new AppError('internal_error', `The sandbox's payment webhook was refused: ${delivered.body}`);
      return { body: { redirect_url: request.body.outcome === 'pay' ? `${pay}?paid=1` : pay } };
    },
  );
};
