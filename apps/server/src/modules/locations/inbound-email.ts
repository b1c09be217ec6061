import { locations } from '@switchboard/db';
import { answer, InboundAddress, InboundAddressQuery } from '@switchboard/shared';
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { inboundAddress } from '../../channels/email/address.ts';
import { requireBusiness } from '../../plugins/auth.ts';
import { resolveLocation } from '../enquiries/service.ts';

export const inboundEmailRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);

  /** Where customers (or the business's own mailbox, by forwarding) send email for this location. */
  app.get(
    '/email/inbound-address',
    { schema: { querystring: InboundAddressQuery, response: { 200: answer(InboundAddress) } } },
    async (request) => {
      const actor = requireBusiness(request.actor);
      const locationId = await resolveLocation(app.db, actor, request.query.location_id);
      const [row] = await app.db
        .select({ token: locations.inbound_email_token })
        .from(locations)
        .where(eq(locations.id, locationId));
      return {
        body: {
          location_id: locationId,
          address: inboundAddress(app.config.email.inboundDomain, row!.token),
        },
      };
    },
  );
};
