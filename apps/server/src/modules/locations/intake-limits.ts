import { locations } from '@switchboard/db';
import {
  answer,
  IdParams,
  INTAKE_LIMIT_DEFAULTS,
  INTAKE_WINDOW_SECONDS,
  type IntakeLimits,
  IntakeLimitsAnswer,
  IntakeLimitsRequest,
  type IntakeLimitsResponse,
  intakeLimitsOf,
} from '@switchboard/shared';
import { and, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { DbActor } from '../../context.ts';
import { recordAudit } from '../../lib/audit.ts';
import { requireBusiness, requireOwner } from '../../plugins/auth.ts';
import { findLocation } from './service.ts';

const toJson = (row: {
  id: string;
  intake_limits: Record<string, unknown> | null;
}): IntakeLimitsResponse => ({
  location_id: row.id,
  limits: intakeLimitsOf(row.intake_limits),
  defaults: INTAKE_LIMIT_DEFAULTS,
  window_seconds: INTAKE_WINDOW_SECONDS,
});

export async function getIntakeLimits(
  { db, actor }: DbActor,
  locationId: string,
): Promise<IntakeLimitsResponse> {
  return toJson(await findLocation(db, requireBusiness(actor), locationId));
}

/** The owner sets how many chats, chat messages and form posts one visitor may send the location per hour. */
export async function updateIntakeLimits(
  { db, actor }: DbActor,
  locationId: string,
  limits: IntakeLimits,
): Promise<IntakeLimitsResponse> {
  const a = requireOwner(actor, 'change the spam limits');
  return db.transaction(async (tx) => {
    const current = await findLocation(tx, a, locationId);
    const [row] = await tx
      .update(locations)
      .set({ intake_limits: limits })
      .where(and(eq(locations.id, current.id), eq(locations.business_id, a.business_id)))
      .returning();
    await recordAudit(tx, a, 'location.intake_limits', { target: current.id, detail: limits });
    return toJson(row!);
  });
}

/** `GET` (anyone in the business) and `PUT` (the owner) `/business/locations/{id}/limits`. */
export const intakeLimitRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);
  app.get(
    '/business/locations/:id/limits',
    { schema: { params: IdParams, response: { 200: answer(IntakeLimitsAnswer) } } },
    async (request) => ({
      body: await getIntakeLimits(request.ctx, request.params.id),
    }),
  );
  app.put(
    '/business/locations/:id/limits',
    {
      schema: { params: IdParams, body: IntakeLimitsRequest, response: { 200: answer(IntakeLimitsAnswer) } },
    },
    async (request) => ({
      body: await updateIntakeLimits(request.ctx, request.params.id, request.body),
    }),
  );
};
