import { channelAccounts, type DbOrTx, trackingNumbers } from '@switchboard/db';
import {
  answer,
  Deleted,
  IdParams,
  isUuid,
  TrackingNumber,
  TrackingNumberList,
  TrackingNumberParams,
  TrackingNumberRequest,
} from '@switchboard/shared';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { Context } from '../../context.ts';
import { fieldError, notFound } from '../../errors.ts';
import { recordAudit } from '../../lib/audit.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { requireBusiness, requireOwner } from '../../plugins/auth.ts';
import { requireFeature } from '../admin/service.ts';
import { findLocation } from '../locations/service.ts';

type Row = typeof trackingNumbers.$inferSelect;
type Ctx = Pick<Context, 'db' | 'actor'>;

const toJson = (r: Row) => ({
  id: r.id,
  location_id: r.location_id,
  number: r.number,
  source: r.source,
  medium: r.medium,
  campaign: r.campaign,
  created_at: r.created_at.toISOString(),
});

export async function listTrackingNumbers(ctx: Ctx, locationId: string) {
  const a = requireBusiness(ctx.actor);
  const location = await findLocation(ctx.db, a, locationId);
  const rows = await ctx.db
    .select()
    .from(trackingNumbers)
    .where(eq(trackingNumbers.location_id, location.id))
    .orderBy(asc(trackingNumbers.created_at));
  return { items: rows.map(toJson) };
}

export async function addTrackingNumber(
  ctx: Ctx,
  locationId: string,
  input: z.output<typeof TrackingNumberRequest>,
) {
  const a = requireOwner(ctx.actor, 'manage the tracking numbers');
  const location = await findLocation(ctx.db, a, locationId);
  const [own] = await ctx.db
    .select({ id: channelAccounts.id })
    .from(channelAccounts)
    .where(and(eq(channelAccounts.business_id, a.business_id), eq(channelAccounts.address, input.number)));
  if (own || location.phone_number === input.number)
    throw fieldError(
      'unprocessable',
      'number',
      `${input.number} is already one of the business’s own numbers.`,
    );
  try {
    const [row] = await ctx.db
      .insert(trackingNumbers)
      .values({
        business_id: a.business_id,
        location_id: location.id,
        number: input.number,
        source: input.source,
        medium: input.medium || null,
        campaign: input.campaign || null,
      })
      .returning();
    await recordAudit(ctx.db, a, 'tracking_number.added', {
      target: row!.id,
      detail: { number: input.number },
    });
    return toJson(row!);
  } catch (error) {
    if (isUniqueViolation(error))
      throw fieldError('conflict', 'number', `${input.number} already tracks a campaign for this business.`);
    throw error;
  }
}

export async function removeTrackingNumber(ctx: Ctx, locationId: string, id: string) {
  const a = requireOwner(ctx.actor, 'manage the tracking numbers');
  const location = await findLocation(ctx.db, a, locationId);
  if (!isUuid(id)) throw notFound('Tracking number');
  const [gone] = await ctx.db
    .delete(trackingNumbers)
    .where(and(eq(trackingNumbers.id, id), eq(trackingNumbers.location_id, location.id)))
    .returning();
  if (!gone) throw notFound('Tracking number');
  await recordAudit(ctx.db, a, 'tracking_number.removed', { target: id, detail: { number: gone.number } });
  return { id, deleted: true as const };
}

/** The tracking number a call was made to, among these businesses' (a Twilio account's). */
export async function findTrackingNumber(db: DbOrTx, number: string, businessIds: string[]) {
  if (businessIds.length === 0) return null;
  const [row] = await db
    .select()
    .from(trackingNumbers)
    .where(and(eq(trackingNumbers.number, number), inArray(trackingNumbers.business_id, businessIds)));
  return row ?? null;
}

/** A location's tracking numbers: its calls from campaigns. */
export const trackingNumberRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);
  app.addHook('preHandler', async (request) => requireFeature(request.ctx, 'calls'));
  app.get(
    '/business/locations/:id/tracking-numbers',
    { schema: { params: IdParams, response: { 200: answer(TrackingNumberList) } } },
    async (request) => ({ body: await listTrackingNumbers(request.ctx, request.params.id) }),
  );
  app.post(
    '/business/locations/:id/tracking-numbers',
    {
      schema: { params: IdParams, body: TrackingNumberRequest, response: { 200: answer(TrackingNumber) } },
    },
    async (request) => ({ body: await addTrackingNumber(request.ctx, request.params.id, request.body) }),
  );
  app.delete(
    '/business/locations/:id/tracking-numbers/:trackingId',
    { schema: { params: TrackingNumberParams, response: { 200: answer(Deleted) } } },
    async (request) => ({
      body: await removeTrackingNumber(request.ctx, request.params.id, request.params.trackingId),
    }),
  );
};
