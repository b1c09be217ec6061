import type { FastifyInstance } from 'fastify';
import { header, rawBody } from '../../channels/webhook-http.ts';
import { depsOf } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { verifyStripeEvent } from '../../integrations/stripe/payments.ts';
import { handleStripeEvent } from './payments.ts';

/**
 * `POST /webhooks/stripe`: Stripe's events for the connected accounts (invoices), the platform's own (the
 * businesses' subscriptions), and the sandbox's, signed alike. The
 * body is kept as the bytes that arrived, since the signature is over them; a bad or stale signature is 400, as
 * Stripe expects, and changes nothing.
 */
export async function stripeWebhooks(app: FastifyInstance): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_request, body, done) =>
    done(null, body),
  );
  app.post('/webhooks/stripe', async (request) => {
    const payments = app.payments;
    if (!payments) throw new AppError('not_found', 'This server takes no card payments.');
    // The Connect endpoint's secret, and the platform (Billing) endpoint's when it has its own.
    const secrets = [payments.webhookSecret, app.config.plans.webhookSecret].filter((s): s is string =>
      Boolean(s),
    );
    let event: ReturnType<typeof verifyStripeEvent> | undefined;
    let failure: unknown;
    for (const secret of secrets) {
      try {
        event = verifyStripeEvent(rawBody(request), header(request, 'stripe-signature'), secret);
        break;
      } catch (error) {
        failure ??= error;
      }
    }
    if (!event) {
      throw new AppError(
        'bad_request',
        `The Stripe signature does not check out: ${failure instanceof Error ? failure.message : String(failure)}`,
      );
    }
    const outcome = await handleStripeEvent(depsOf(app), event);
    return { received: true, duplicate: outcome === 'duplicate' };
  });
}
