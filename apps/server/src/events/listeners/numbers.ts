import type { FastifyInstance } from 'fastify';
import { numbersRelease } from '../../jobs/definitions/numbers-release.ts';

/**
 * A business's subscription changed (it may have ended) or its channels changed (a platform number's account
 * may be gone): a release job looks at its platform numbers. Only with a platform Twilio account configured.
 */
export function numbersListeners(app: FastifyInstance): void {
  if (!app.config.twilioPlatform) return;
  const queue = (business_id: string) =>
    void app.jobs
      .send(numbersRelease, { business_id }, { singletonKey: business_id })
      .catch((error: unknown) =>
        app.log.error({ err: error, business_id }, 'queuing a number release failed'),
      );
  app.events.on('account.changed', ({ business_id }) => queue(business_id));
  app.events.on('channels.changed', ({ business_id }) => queue(business_id));
}
