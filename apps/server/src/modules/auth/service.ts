import { type Db, hashPassword, locations, sessions, users, verifyPassword } from '@switchboard/db';
import { asc, eq, sql } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Context } from '../../context.ts';
import { AppError, fieldError, notFound } from '../../errors.ts';
import { recordAudit } from '../../lib/audit.ts';
import { signAccessToken } from '../../lib/tokens.ts';
import { assertOwnLocation } from '../locations/service.ts';
import { openableBusinesses } from '../users/access.ts';

type Ctx = { db: Db; config: Config };
/** Signed-in calls: the same, and who is acting. */
type ActorCtx = Pick<Context, 'db' | 'config' | 'actor'>;

export type LoginResult = { token: string; key: string; iv: string };

// Verified against when the email is unknown, so both cases cost the same argon2 time.
const dummyHash = hashPassword('switchboard-timing-equaliser');

const invalidCredentials = () => new AppError('invalid_credentials', 'The email or password is incorrect.');

export async function login(
  { db, config }: Ctx,
  input: {
    email: string;
    password: string;
    businessId?: string;
    locationId?: string;
    ip?: string;
    userAgent?: string;
    /** Runs once the account (or its absence) is known, before the password is checked: rate limits. */
    beforeVerify?: (user: { id: string; email: string } | undefined) => Promise<void>;
  },
): Promise<LoginResult & { user_id: string }> {
  const [user] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = lower(${input.email})`)
    .limit(1);
  await input.beforeVerify?.(user);
  const ok = await verifyPassword(user?.password_hash ?? (await dummyHash), input.password);
  if (!user || !ok) throw invalidCredentials();

  return startSession({ db, config }, user, input);
}

/**
 * A new session for a user whose identity is settled (a correct password, a new sign-up, an accepted
 * invitation): the token is issued for the requested business and location when the user may open them.
 */
export async function startSession(
  { db, config }: Ctx,
  user: Pick<typeof users.$inferSelect, 'id' | 'token_version' | 'client_key' | 'client_iv'>,
  input: { businessId?: string; locationId?: string; ip?: string; userAgent?: string },
): Promise<LoginResult & { user_id: string }> {
  const { entered_as_admin, ...selection } = await pickSelection(
    db,
    user.id,
    input.businessId,
    input.locationId,
  );
  const ttl = Math.round(config.sessionDays * 86_400);
  if (entered_as_admin && selection.business_id)
    await recordAdminEntry(db, user.id, selection.business_id, 'login');
  const [session] = await db
    .insert(sessions)
    .values({
      user_id: user.id,
      token_version: user.token_version,
      expires_at: new Date(Date.now() + ttl * 1000),
      ip: input.ip,
      user_agent: input.userAgent?.slice(0, 500),
    })
    .returning({ id: sessions.id });
  const token = await signAccessToken(
    { ...selection, user_id: user.id, sid: session!.id, tv: user.token_version },
    config.jwtSecret,
    ttl,
  );
  return { token, key: user.client_key, iv: user.client_iv, user_id: user.id };
}

/** How a Switchboard administrator came into a business they are not a member of. */
export type AdminEntry = 'console' | 'switch' | 'login';

/**
 * An administrator entering a business they are not a member of, however they came in (the console's "open",
 * switching business, signing in with it chosen): one line in that business's audit log, so its owner sees
 * who came in, when and how.
 */
async function recordAdminEntry(db: Db, userId: string, businessId: string, how: AdminEntry) {
  await recordAudit(db, { business_id: businessId, user_id: userId }, 'admin.business.open', {
    target: businessId,
    detail: { how },
  });
}

/**
 * The business and location a token is issued for: the requested ones when the user may use them, otherwise
 * the user's first business and that business's first location; `entered_as_admin` when it is a business the
 * user (an administrator) is not a member of.
 */
async function pickSelection(
  db: Db,
  userId: string,
  businessId?: string,
  locationId?: string,
): Promise<{ business_id: string | null; location_id: string | null; entered_as_admin: boolean }> {
  const openable = await openableBusinesses(db, userId);
  const chosen = openable.find((m) => m.business.id === businessId) ?? openable[0];
  if (!chosen) return { business_id: null, location_id: null, entered_as_admin: false };
  const locs = (
    await db
      .select({ id: locations.id })
      .from(locations)
      .where(eq(locations.business_id, chosen.business.id))
      .orderBy(asc(locations.precedence), asc(locations.created_at))
  ).filter((l) => !chosen.location_ids || chosen.location_ids.includes(l.id));
  const location = locs.find((l) => l.id === locationId) ?? locs[0];
  return {
    business_id: chosen.business.id,
    location_id: location?.id ?? null,
    entered_as_admin: chosen.role === null,
  };
}

export async function logout({ db, actor }: ActorCtx): Promise<void> {
  await db.update(sessions).set({ revoked_at: new Date() }).where(eq(sessions.id, actor.session_id));
}

/**
 * A token for the same session with another business and/or location selected. An administrator coming into
 * a business they are not a member of is recorded in its audit log (`how`: the console's "open", or a switch).
 */
export async function switchSelection(
  { db, config, actor }: ActorCtx,
  input: { business_id: string; location_id?: string },
  how: Exclude<AdminEntry, 'login'> = 'switch',
): Promise<{ token: string }> {
  const openable = await openableBusinesses(db, actor.user_id);
  const chosen = openable.find((o) => o.business.id === input.business_id);
  if (!chosen) throw new AppError('not_found', 'Business not found.');
  await assertOwnLocation(db, input.business_id, input.location_id);
  if (input.location_id && chosen.location_ids && !chosen.location_ids.includes(input.location_id))
    throw notFound('Location');
  const { entered_as_admin, ...selection } = await pickSelection(
    db,
    actor.user_id,
    input.business_id,
    input.location_id,
  );
  // Moving between locations of the business already open is not entering it again.
  if (entered_as_admin && (how === 'console' || actor.business_id !== input.business_id))
    await recordAdminEntry(db, actor.user_id, input.business_id, how);
  const ttl = Math.round(config.sessionDays * 86_400);
  const token = await signAccessToken(
    { ...selection, user_id: actor.user_id, sid: actor.session_id, tv: actor.token.tv },
    config.jwtSecret,
    ttl,
  );
  return { token };
}

/** Changes the password and invalidates every token issued before; this browser gets a fresh one. */
export async function changePassword(
  { actor, ...ctx }: ActorCtx,
  input: { current_password: string; new_password: string },
): Promise<LoginResult> {
  const { db } = ctx;
  const [user] = await db.select().from(users).where(eq(users.id, actor.user_id));
  if (!user || !(await verifyPassword(user.password_hash, input.current_password))) {
    throw fieldError('unprocessable', 'current_password', 'The current password is incorrect.');
  }
  if (input.new_password === input.current_password) {
    throw fieldError('unprocessable', 'new_password', 'The new password must differ from the current one.');
  }
  await db
    .update(users)
    .set({
      password_hash: await hashPassword(input.new_password),
      token_version: sql`${users.token_version} + 1`,
    })
    .where(eq(users.id, user.id));
  await db.update(sessions).set({ revoked_at: new Date() }).where(eq(sessions.user_id, user.id));
  const { token, key, iv } = await login(ctx, {
    email: user.email,
    password: input.new_password,
    businessId: actor.business_id ?? undefined,
    locationId: actor.location_id ?? undefined,
  });
  return { token, key, iv };
}
