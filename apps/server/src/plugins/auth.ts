import { type Database, type Db, queryRows } from '@switchboard/db';
import { type Column, inArray, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import { AppError } from '../errors.ts';
import { signAccessToken, type VerifiedToken, verifyAccessToken } from '../lib/tokens.ts';

export type Role = 'owner' | 'staff';

export type Actor = {
  user_id: string;
  session_id: string;
  super_admin: boolean;
  /** The selected business, or null when the user belongs to none. */
  business_id: string | null;
  /**
   * The selected location; when the token names none (or one deleted, or not theirs), the first location
   * they work at.
   */
  location_id: string | null;
  /** The locations a staff member is limited to, by precedence; null for everyone who works at all of them. */
  location_ids: string[] | null;
  role: Role | null;
  /** businesses.owner_user_id equals the user id. */
  is_owner: boolean;
  token: VerifiedToken;
};

export type BusinessActor = Actor & { business_id: string };

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: Database;
    db: Db;
    authenticate: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
  interface FastifyRequest {
    actor: Actor;
  }
}

const unauthenticated = () => new AppError('session_expired', 'Your session has ended. Please log in again.');

/** The selected business, or the error the web app turns into "clear tokens, go to '/'". */
export function requireBusiness(actor: Actor): BusinessActor {
  if (!actor.business_id) {
    throw new AppError(
      'no_business',
      'Your account is not linked to any business. Ask the business owner to invite you.',
    );
  }
  return actor as BusinessActor;
}

export function requireOwner(actor: Actor, action = 'do this'): BusinessActor {
  const a = requireBusiness(actor);
  if (!a.is_owner && a.role !== 'owner' && !a.super_admin) {
    throw new AppError('owner_only', `Only the business owner can ${action}.`);
  }
  return a;
}

/** Whether the actor works at this location (everyone but a staff member limited to others does). */
export function worksAt(actor: Actor, locationId: string): boolean {
  return !actor.location_ids || actor.location_ids.includes(locationId);
}

/** A condition keeping a location id column to the actor's locations; undefined when they work at all. */
export function atTheirLocations(actor: Actor, column: Column): SQL | undefined {
  if (!actor.location_ids) return undefined;
  return actor.location_ids.length ? inArray(column, actor.location_ids) : sql`false`;
}

export function requireSuperAdmin(actor: Actor): Actor {
  if (!actor.super_admin)
    throw new AppError('super_admin_only', 'Only a Switchboard administrator can do this.');
  return actor;
}

type SessionRow = {
  revoked_at: Date | string | null;
  expires_at: Date | string;
  token_version: number;
  super_admin: boolean;
  role: Role | null;
  owner_user_id: string | null;
  business_exists: boolean;
  location_id: string | null;
  first_location_id: string | null;
  /** Set only for a staff member limited to some locations: theirs, by precedence. */
  member_location_ids: string[] | null;
};

export const authPlugin = fp(async (app: FastifyInstance) => {
  app.decorateRequest('actor', null as unknown as Actor);

  app.decorate('authenticate', async (request: FastifyRequest, reply: FastifyReply) => {
    const header = request.headers.authorization;
    const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
    if (!token) throw new AppError('unauthenticated', 'Please log in to continue.');
    const actor = await resolveActor(app, token);
    request.actor = actor;
    if (Date.now() / 1000 - actor.token.iat >= app.config.tokenRenewAfterSeconds) {
      reply.header('refresh-token', await renewToken(app, actor.token));
    }
  });
});

/**
 * The actor of a download the browser fetches by itself (an <img>, a link to a PDF or CSV): the bearer token,
 * or the web app's `access` cookie, which is the same token.
 */
export async function downloadActor(app: FastifyInstance, request: FastifyRequest): Promise<Actor> {
  const header = request.headers.authorization;
  const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : request.cookies.access;
  if (!token) throw new AppError('unauthenticated', 'Please log in to continue.');
  return resolveActor(app, token);
}

/** The actor a bearer token stands for; throws 401 for an invalid, expired, revoked or outdated token. */
export async function resolveActor(app: FastifyInstance, token: string): Promise<Actor> {
  const claims = await verifyAccessToken(token, app.config.jwtSecret);
  if (!claims) throw unauthenticated();
  const row = await loadSession(app.db, claims);
  if (!row || row.revoked_at || new Date(row.expires_at) <= new Date() || row.token_version !== claims.tv) {
    throw unauthenticated();
  }
  const member = Boolean(claims.business_id && row.business_exists && (row.role || row.super_admin));
  const limited = member ? row.member_location_ids : null;
  const location = limited
    ? (limited.find((id) => id === row.location_id) ?? limited[0] ?? null)
    : (row.location_id ?? row.first_location_id);
  return {
    user_id: claims.user_id,
    session_id: claims.sid,
    super_admin: row.super_admin,
    business_id: member ? claims.business_id : null,
    location_id: member ? location : null,
    location_ids: limited,
    role: member ? row.role : null,
    is_owner: member && row.owner_user_id === claims.user_id,
    token: claims,
  };
}

async function loadSession(db: Db, claims: VerifiedToken): Promise<SessionRow | undefined> {
  const bid = claims.business_id;
  const lid = claims.location_id;
  const rows = await queryRows<SessionRow>(
    db,
    sql`
    select s.revoked_at, s.expires_at, u.token_version, u.super_admin,
           bm.role, b.owner_user_id, (b.id is not null) as business_exists,
           l.id as location_id,
           (select fl.id from locations fl where fl.business_id = b.id
             order by fl.precedence, fl.created_at limit 1) as first_location_id,
           case when bm.role = 'staff' and not bm.all_locations and not u.super_admin
                  and b.owner_user_id is distinct from u.id
             then coalesce((select array_agg(ml.id::text order by ml.precedence, ml.created_at)
                            from location_members lm join locations ml on ml.id = lm.location_id
                            where lm.business_id = b.id and lm.user_id = u.id), '{}')
           end as member_location_ids
    from sessions s
    join users u on u.id = s.user_id
    left join businesses b on b.id = ${bid}::uuid
    left join business_members bm on bm.business_id = b.id and bm.user_id = u.id
    left join locations l on l.id = ${lid}::uuid and l.business_id = b.id
    where s.id = ${claims.sid}::uuid and s.user_id = ${claims.user_id}::uuid`,
  );
  return rows[0];
}

/** Sliding session: a fresh 14-day token, and the session extended to match. */
async function renewToken(app: FastifyInstance, claims: VerifiedToken): Promise<string> {
  const ttl = Math.round(app.config.sessionDays * 86_400);
  await app.db.execute(
    sql`update sessions set expires_at = ${new Date(Date.now() + ttl * 1000)}, updated_at = now()
        where id = ${claims.sid}::uuid`,
  );
  const { business_id, location_id, user_id, sid, tv } = claims;
  return signAccessToken({ business_id, location_id, user_id, sid, tv }, app.config.jwtSecret, ttl);
}
