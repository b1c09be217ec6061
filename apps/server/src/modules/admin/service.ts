import { auditLog, businesses, type DbOrTx, queryRows, users } from '@switchboard/db';
import {
  type AdminBusiness,
  type AdminBusinessPatch,
  type AdminBusinessQuery,
  type FeatureFlag,
  featureFlags,
  isUuid,
  subscriptionStatus,
} from '@switchboard/shared';
import { and, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Context } from '../../context.ts';
import { AppError, notFound } from '../../errors.ts';
import { recordAudit } from '../../lib/audit.ts';
import { type Actor, requireBusiness, requireOwner, requireSuperAdmin } from '../../plugins/auth.ts';
import { switchSelection } from '../auth/service.ts';
import { accountChanged } from '../billing/service.ts';
import { messagesSentToday } from '../businesses/service.ts';

type Ctx = Pick<Context, 'db' | 'config' | 'actor' | 'cache' | 'events'>;
type Row = typeof businesses.$inferSelect;

/** Outgoing messages since a moment, per business, for a page of businesses (messages_business_idx). */
async function sentSince(db: DbOrTx, ids: string[], since: Date): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = await queryRows<{ business_id: string; n: number }>(
    db,
    sql`select business_id, count(*)::int as n from messages
        where business_id in (${sql.join(
          ids.map((id) => sql`${id}::uuid`),
          sql`, `,
        )}) and created_at >= ${since} and direction = 'out'
        group by business_id`,
  );
  return new Map(rows.map((r) => [r.business_id, r.n]));
}

function toAdminBusiness(
  ctx: Pick<Ctx, 'config'>,
  b: Row,
  owner: { id: string; full_name: string; email: string } | null,
  month: number,
): z.input<typeof AdminBusiness> {
  return {
    id: b.id,
    name: b.name,
    plan: b.plan,
    status: subscriptionStatus(b),
    trial_end_date: b.trial_end_date?.toISOString() ?? null,
    next_invoice_attempt: b.next_invoice_attempt?.toISOString() ?? null,
    messages_today: messagesSentToday(b),
    messages_this_month: month,
    message_limit: b.message_limit,
    owner,
    created_at: b.created_at.toISOString(),
    verified: b.verified,
    regulated: b.regulated,
    regulated_allowed: ctx.config.regulatedBusinessIds.includes(b.id.toLowerCase()),
    country: b.country,
    feature_flags: featureFlags(b.feature_flags),
    signup_meta: b.signup_meta ?? null,
  };
}

const monthStart = () => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
};

/** `GET /admin/businesses`: every business, newest first, with its owner and usage. */
export async function listBusinesses(ctx: Ctx, query: z.output<typeof AdminBusinessQuery>) {
  requireSuperAdmin(ctx.actor);
  const where: SQL[] = [];
  const q = query.q?.trim();
  if (q) {
    const like = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    where.push(
      sql`(${businesses.name} ilike ${like} or ${users.email} ilike ${like} or ${users.full_name} ilike ${like}${
        isUuid(q) ? sql` or ${businesses.id} = ${q}::uuid` : sql``
      })`,
    );
  }
  const rows = await ctx.db
    .select({ b: businesses, owner: { id: users.id, full_name: users.full_name, email: users.email } })
    .from(businesses)
    .leftJoin(users, eq(users.id, businesses.owner_user_id))
    .where(where.length ? and(...where) : undefined)
    .orderBy(desc(businesses.created_at), desc(businesses.id));
  // The status is derived (spec §4), so it is filtered here; an installation has businesses in the thousands.
  const filtered = query.status ? rows.filter((r) => subscriptionStatus(r.b) === query.status) : rows;
  const start = (query.page - 1) * query.page_size;
  const page = filtered.slice(start, start + query.page_size);
  const months = await sentSince(
    ctx.db,
    page.map((r) => r.b.id),
    monthStart(),
  );
  return {
    items: page.map((r) => toAdminBusiness(ctx, r.b, r.owner?.id ? r.owner : null, months.get(r.b.id) ?? 0)),
    page: query.page,
    page_size: query.page_size,
    total: filtered.length,
  };
}

async function loadOne(ctx: Ctx, id: string) {
  if (!isUuid(id)) throw notFound('Business');
  const [row] = await ctx.db
    .select({ b: businesses, owner: { id: users.id, full_name: users.full_name, email: users.email } })
    .from(businesses)
    .leftJoin(users, eq(users.id, businesses.owner_user_id))
    .where(eq(businesses.id, id));
  if (!row) throw notFound('Business');
  return row;
}

export async function getBusiness(ctx: Ctx, id: string) {
  requireSuperAdmin(ctx.actor);
  const row = await loadOne(ctx, id);
  const months = await sentSince(ctx.db, [id], monthStart());
  return toAdminBusiness(ctx, row.b, row.owner?.id ? row.owner : null, months.get(id) ?? 0);
}

/**
 * `PATCH /admin/businesses/{id}`: extend (or end) a trial, set the plan (its daily limit follows unless one is
 * given), mark regulated (only businesses on the installation's list), confirm the email, set feature flags.
 */
export async function updateBusinessAsAdmin(
  ctx: Ctx,
  id: string,
  patch: z.output<typeof AdminBusinessPatch>,
) {
  const admin = requireSuperAdmin(ctx.actor);
  const { b } = await loadOne(ctx, id);
  if (patch.regulated === true && !ctx.config.regulatedBusinessIds.includes(b.id.toLowerCase())) {
    throw new AppError(
      'unprocessable',
      `${b.name} is not on this installation's list of regulated businesses (REGULATED_BUSINESS_IDS).`,
    );
  }
  const set: Partial<Row> = {};
  if (patch.trial_end_date) {
    set.trial_end_date = new Date(patch.trial_end_date);
    // A new trial end on a trial business starts the trial again if it had ended by going past due.
    if (b.plan === 'trial' && set.trial_end_date > new Date()) set.subscription_past_due = false;
  }
  if (patch.plan) {
    set.plan = patch.plan;
    set.message_limit = ctx.config.plans.messageLimit[patch.plan];
    set.subscription_past_due = false;
    set.next_invoice_attempt = null;
  }
  if (patch.message_limit !== undefined) set.message_limit = patch.message_limit;
  if (patch.regulated !== undefined) set.regulated = patch.regulated;
  if (patch.verified) {
    set.verified = true;
    set.verified_at = b.verified_at ?? new Date();
  }
  if (patch.feature_flags) set.feature_flags = { ...b.feature_flags, ...patch.feature_flags };
  await ctx.db.transaction(async (tx) => {
    await tx.update(businesses).set(set).where(eq(businesses.id, b.id));
    // Written against the business, so its owner sees what the administrator changed.
    await recordAudit(tx, { business_id: b.id, user_id: admin.user_id }, 'admin.business.update', {
      target: b.id,
      detail: patch,
    });
  });
  await accountChanged(ctx, b.id);
  return getBusiness(ctx, b.id);
}

/** Opens a business as an administrator: a token with it selected (recorded in its audit log as an entry). */
export async function openBusiness(ctx: Ctx, id: string) {
  requireSuperAdmin(ctx.actor);
  const { b } = await loadOne(ctx, id);
  const { token } = await switchSelection(ctx, { business_id: b.id }, 'console');
  return { token, business_id: b.id };
}

/**
 * The audit log, newest first: an owner reads their own business's; an administrator any business's, or the
 * whole installation's.
 */
export async function listAudit(
  ctx: Pick<Context, 'db' | 'actor'>,
  query: { page: number; page_size: number; business_id?: string },
  scope: 'business' | 'admin',
) {
  let businessId: string | null;
  if (scope === 'admin') {
    requireSuperAdmin(ctx.actor);
    businessId = query.business_id ?? null;
  } else {
    businessId = requireOwner(ctx.actor, 'read the audit log').business_id;
  }
  const where = businessId ? eq(auditLog.business_id, businessId) : undefined;
  const rows = await ctx.db
    .select({ a: auditLog, u: { id: users.id, full_name: users.full_name, email: users.email } })
    .from(auditLog)
    .leftJoin(users, eq(users.id, auditLog.user_id))
    .where(where)
    .orderBy(desc(auditLog.created_at), desc(auditLog.id))
    .limit(query.page_size + 1)
    .offset((query.page - 1) * query.page_size);
  const [count] = await ctx.db.select({ n: sql<number>`count(*)::int` }).from(auditLog).where(where);
  return {
    items: rows.slice(0, query.page_size).map(({ a, u }) => ({
      id: a.id,
      business_id: a.business_id,
      user: u?.id ? u : null,
      action: a.action,
      target: a.target,
      detail: a.detail,
      created_at: a.created_at.toISOString(),
    })),
    page: query.page,
    page_size: query.page_size,
    total: count?.n ?? 0,
  };
}

/** Whether a feature is on for the business (cached per business with its other flags). */
export async function featureOn(
  ctx: Pick<Context, 'db' | 'cache'>,
  businessId: string,
  flag: FeatureFlag,
): Promise<boolean> {
  const flags = await ctx.cache.remember(businessId, 'flags', async () => {
    const [b] = await ctx.db
      .select({ flags: businesses.feature_flags })
      .from(businesses)
      .where(eq(businesses.id, businessId));
    return featureFlags(b?.flags);
  });
  return flags[flag];
}

/** The one answer to anything of a feature an administrator turned off for the business. */
export const featureOff = () =>
  new AppError(
    'forbidden',
    'This feature is turned off for your business. Contact Switchboard support to turn it on.',
  );

/** Refuses a route (or socket event) of a feature an administrator turned off for the business. */
export async function requireFeature(
  ctx: Pick<Context, 'db' | 'cache'> & { actor: Actor },
  flag: FeatureFlag,
) {
  if (!ctx.actor?.business_id) return;
  const a = requireBusiness(ctx.actor);
  if (!(await featureOn(ctx, a.business_id, flag))) throw featureOff();
}
