import {
  businesses,
  businessMembers,
  type Db,
  hashPassword,
  locations,
  newClientKey,
  oneTimeSecrets,
  sessions,
  users,
  verifyPassword,
} from '@switchboard/db';
import { type AcceptInvitationRequest, type InviteRequest, isUuid } from '@switchboard/shared';
import { and, asc, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Config } from '../../config.ts';
import type { Context } from '../../context.ts';
import { AppError, fieldError, notFound } from '../../errors.ts';
import type { SystemMail } from '../../jobs/definitions/system-mail.ts';
import { recordAudit } from '../../lib/audit.ts';
import { ipKey, type Limiter, type LimitRule } from '../../lib/limiter.ts';
import { quoted } from '../../lib/mail-text.ts';
import { requireOwner } from '../../plugins/auth.ts';
import type { Mailer } from '../../plugins/mailer.ts';
import { startSession } from '../auth/service.ts';
import { findLinkSecret, issueLinkSecret, useLinkSecret } from '../signup/secrets.ts';
import { spend } from '../signup/service.ts';
import { grantLocations, namedLocations } from './locations.ts';

const INVITE_DAYS = 7;
type Ctx = Pick<Context, 'db' | 'config' | 'actor' | 'mailer' | 'limiter' | 'events'>;

/** Invitation emails: per person inviting, per business and per network, an hour. */
const inviteRules = {
  perInviter: { name: 'invite_user', points: 20, windowSeconds: 3600 },
  perBusiness: { name: 'invite', points: 30, windowSeconds: 3600 },
  perIp: { name: 'invite_ip', points: 30, windowSeconds: 3600 },
} satisfies Record<string, LimitRule>;

const byEmail = (db: Db, email: string) =>
  db.select().from(users).where(sql`lower(${users.email}) = lower(${email})`).limit(1);

/**
 * The invitation email. It goes to someone who never asked for mail from us, so the subject is ours alone and
 * everything the inviter typed (business, their name, locations, the invitee's name) is quoted as theirs.
 */
function invitationMail(
  publicUrl: string,
  input: {
    to: string;
    secret: string;
    role: 'owner' | 'staff';
    business: string;
    inviter: string | null;
    invitee: string | null;
    places: string[] | null;
  },
): SystemMail {
  const theirs = [
    `  Business: ${quoted(input.business)}`,
    ...(input.inviter ? [`  Invited by: ${quoted(input.inviter)}`] : []),
    ...(input.places ? [`  Locations: ${input.places.map((p) => quoted(p, 60)).join(', ')}`] : []),
    ...(input.invitee ? [`  Your name: ${quoted(input.invitee)}`] : []),
  ];
  return {
    to: input.to,
    subject: "You're invited to join a team on Switchboard",
    text: [
      'Hello,',
      '',
      `You have been invited to join a team on Switchboard, as ${input.role === 'owner' ? 'an owner' : 'a team member'}. Switchboard is where businesses answer their customers' messages together.`,
      '',
      'The person who invited you wrote these details themselves; Switchboard has not checked them:',
      ...theirs,
      '',
      `To join, open this link (it works once, for ${INVITE_DAYS} days):`,
      `${publicUrl}/signup/invite?secret=${encodeURIComponent(input.secret)}`,
      '',
      'If you do not know who this is, ignore this email: nothing happens unless you open the link and accept.',
    ].join('\n'),
  };
}

/**
 * `POST /business/members/invitations`: emails a link to join the business (owners). Nothing goes to anyone
 * until the business's own email is confirmed, and invitations are limited per inviter, business and network.
 */
export async function invite(ctx: Ctx, input: z.output<typeof InviteRequest>, client: { ip: string }) {
  const a = requireOwner(ctx.actor, 'invite people');
  const [b] = await ctx.db.select().from(businesses).where(eq(businesses.id, a.business_id));
  if (!b) throw notFound('Business');
  if (!b.verified) {
    throw new AppError(
      'email_not_verified',
      'Confirm your email first: invitations go out once the business’s email address is confirmed. Open the link we emailed you, or send a new one.',
    );
  }
  await spend(ctx.limiter, inviteRules.perIp, ipKey(client.ip), 'invitations from this network');
  await spend(ctx.limiter, inviteRules.perInviter, a.user_id, 'invitations from your account');
  await spend(ctx.limiter, inviteRules.perBusiness, a.business_id, 'invitations from this business');
  const email = input.email.toLowerCase();
  const [existing] = await byEmail(ctx.db, email);
  if (existing) {
    const [member] = await ctx.db
      .select()
      .from(businessMembers)
      .where(and(eq(businessMembers.business_id, a.business_id), eq(businessMembers.user_id, existing.id)));
    if (member) throw fieldError('conflict', 'email', `${input.email} is already in your team.`);
  }
  // Owners work at every location; a team member at the ones named (none named: all).
  const places =
    input.role === 'owner' ? null : await namedLocations(ctx.db, a.business_id, input.location_ids);
  const location_ids = places ? places.map((l) => l.id) : null;
  const [me] = await ctx.db.select({ full_name: users.full_name }).from(users).where(eq(users.id, a.user_id));
  const inviter = me?.full_name || null;
  const secret = await issueLinkSecret(ctx.db, {
    kind: 'invitation',
    business_id: a.business_id,
    target: email,
    ttlMs: INVITE_DAYS * 86_400_000,
    detail: { role: input.role, full_name: input.full_name ?? null, invited_by: inviter, location_ids },
  });
  await recordAudit(ctx.db, a, 'member.invite', {
    target: email,
    detail: { role: input.role, location_ids },
  });
  await ctx.mailer.queue(
    invitationMail(ctx.config.publicUrl, {
      to: input.email,
      secret,
      role: input.role,
      business: b.name,
      inviter,
      invitee: input.full_name || null,
      places: places ? places.map((l) => l.name || 'a location without a name') : null,
    }),
  );
  return { sent: true as const, email };
}

export async function listInvitations(ctx: Pick<Context, 'db' | 'actor'>) {
  const a = requireOwner(ctx.actor, 'see invitations');
  const rows = await ctx.db
    .select()
    .from(oneTimeSecrets)
    .where(
      and(
        eq(oneTimeSecrets.kind, 'invitation'),
        eq(oneTimeSecrets.business_id, a.business_id),
        isNull(oneTimeSecrets.used_at),
        gt(oneTimeSecrets.expires_at, new Date()),
      ),
    )
    .orderBy(desc(oneTimeSecrets.created_at));
  const names = await locationNames(ctx.db, a.business_id);
  return {
    items: rows.map((r) => ({
      id: r.id,
      email: r.target,
      full_name: (r.detail?.full_name as string | null) ?? null,
      role: r.detail?.role === 'owner' ? ('owner' as const) : ('staff' as const),
      invited_by: (r.detail?.invited_by as string | null) ?? null,
      location_names: invitedPlaces(r.detail, names),
      created_at: r.created_at.toISOString(),
      expires_at: r.expires_at.toISOString(),
    })),
  };
}

export async function revokeInvitation(ctx: Pick<Context, 'db' | 'actor'>, id: string) {
  const a = requireOwner(ctx.actor, 'withdraw invitations');
  if (!isUuid(id)) throw notFound('Invitation');
  const [row] = await ctx.db
    .update(oneTimeSecrets)
    .set({ used_at: new Date() })
    .where(
      and(
        eq(oneTimeSecrets.id, id),
        eq(oneTimeSecrets.kind, 'invitation'),
        eq(oneTimeSecrets.business_id, a.business_id),
        isNull(oneTimeSecrets.used_at),
      ),
    )
    .returning();
  if (!row) throw notFound('Invitation');
  await recordAudit(ctx.db, a, 'member.invite.revoke', { target: row.target });
  return { id, deleted: true as const };
}

/** The business's location names by id. */
async function locationNames(db: Db, businessId: string): Promise<Map<string, string>> {
  const rows = await db
    .select({ id: locations.id, name: locations.name })
    .from(locations)
    .where(eq(locations.business_id, businessId))
    .orderBy(asc(locations.precedence), asc(locations.created_at));
  return new Map(rows.map((l) => [l.id, l.name || 'A location without a name']));
}

/** The invitation's locations still there, by name; null for all of them. */
function invitedLocationIds(detail: Record<string, unknown> | null, names: Map<string, string>) {
  const ids = detail?.location_ids;
  if (!Array.isArray(ids)) return null;
  return [...names.keys()].filter((id) => ids.includes(id));
}

function invitedPlaces(detail: Record<string, unknown> | null, names: Map<string, string>) {
  return invitedLocationIds(detail, names)?.map((id) => names.get(id)!) ?? null;
}

const expired = () =>
  new AppError(
    'not_found',
    'This invitation has expired, was withdrawn or was already used. Ask for a new one.',
  );

async function openInvitation(db: Db, secret: string) {
  const row = await findLinkSecret(db, 'invitation', secret);
  if (row?.used_at && row.business_id) {
    // Opened again after joining (from the email, say): the person has an account now.
    throw new AppError(
      'not_found',
      'This invitation was used already. Log in with the email address it was sent to.',
    );
  }
  if (!row || row.used_at || row.expires_at <= new Date() || !row.business_id) throw expired();
  const [b] = await db.select().from(businesses).where(eq(businesses.id, row.business_id));
  if (!b) throw expired();
  return { row, business: b };
}

/** `GET /business/invitations/{secret}`: what the link invites to. */
export async function previewInvitation(ctx: { db: Db }, secret: string) {
  const { row, business } = await openInvitation(ctx.db, secret);
  const [existing] = await byEmail(ctx.db, row.target);
  return {
    business_name: business.name,
    email: row.target,
    role: row.detail?.role === 'owner' ? ('owner' as const) : ('staff' as const),
    invited_by: (row.detail?.invited_by as string | null) ?? null,
    full_name: typeof row.detail?.full_name === 'string' ? row.detail.full_name : null,
    location_names: invitedPlaces(row.detail, await locationNames(ctx.db, business.id)),
    has_account: Boolean(existing),
  };
}

/**
 * `POST /business/invitations/{secret}/accept`: joins the business, signed in at once. A new person sets their
 * password; someone with an account proves it is theirs with their password.
 */
export async function acceptInvitation(
  ctx: { db: Db; config: Config; limiter: Limiter; mailer: Mailer },
  secret: string,
  input: z.output<typeof AcceptInvitationRequest>,
  client: { ip: string; userAgent?: string },
) {
  await spend(
    ctx.limiter,
    { name: 'invite_accept_ip', points: 20, windowSeconds: 600 },
    ipKey(client.ip),
    'attempts',
  );
  const { row, business } = await openInvitation(ctx.db, secret);
  const [existing] = await byEmail(ctx.db, row.target);
  if (existing && !(await verifyPassword(existing.password_hash, input.password))) {
    throw new AppError('unprocessable', 'That is not the password of this account.');
  }
  if (!existing && input.password.length < 8) {
    throw new AppError('unprocessable', 'Choose a password of at least 8 characters.');
  }
  if (!existing && !input.full_name?.trim()) throw new AppError('unprocessable', 'Please enter your name.');
  const hash = existing ? null : await hashPassword(input.password);
  const role = row.detail?.role === 'owner' ? 'owner' : 'staff';
  // Locations deleted since the invitation are left out; if none is left, the owner chooses again later.
  const places =
    role === 'staff' ? invitedLocationIds(row.detail, await locationNames(ctx.db, business.id)) : null;
  const user = await ctx.db.transaction(async (tx) => {
    const used = await useLinkSecret(tx, 'invitation', secret);
    if (!used) throw expired();
    const person =
      existing ??
      (
        await tx
          .insert(users)
          .values({
            email: row.target,
            full_name: input.full_name!.trim(),
            password_hash: hash!,
            ...newClientKey(),
          })
          .returning()
      )[0]!;
    const [joined] = await tx
      .insert(businessMembers)
      .values({ business_id: business.id, user_id: person.id, role })
      .onConflictDoNothing()
      .returning();
    if (joined && places) await grantLocations(tx, business.id, person.id, places);
    await recordAudit(tx, { business_id: business.id, user_id: person.id }, 'member.join', {
      target: person.id,
      detail: { email: row.target, role, location_ids: places },
    });
    return person;
  });
  const session = await startSession(ctx, user, {
    businessId: business.id,
    ip: client.ip,
    userAgent: client.userAgent,
  });
  return { token: session.token, key: session.key, iv: session.iv };
}

/**
 * `DELETE /business/members/{userId}` (owners): the person leaves the business. Their sessions end at once
 * (everywhere: they sign in again for any other business they are in).
 */
export async function removeMember(ctx: Ctx, userId: string) {
  const a = requireOwner(ctx.actor, 'remove people from the team');
  if (!isUuid(userId)) throw notFound('Team member');
  const [b] = await ctx.db.select().from(businesses).where(eq(businesses.id, a.business_id));
  if (b?.owner_user_id === userId)
    throw new AppError('unprocessable', 'The business owner cannot be removed.');
  if (userId === a.user_id) throw new AppError('unprocessable', 'You cannot remove yourself.');
  const [gone] = await ctx.db
    .delete(businessMembers)
    .where(and(eq(businessMembers.business_id, a.business_id), eq(businessMembers.user_id, userId)))
    .returning();
  if (!gone) throw notFound('Team member');
  await ctx.db
    .update(sessions)
    .set({ revoked_at: new Date() })
    .where(and(eq(sessions.user_id, userId), isNull(sessions.revoked_at)));
  await recordAudit(ctx.db, a, 'member.remove', { target: userId });
  ctx.events.emit('user.sessions_revoked', { user_id: userId });
  return { id: userId, deleted: true as const };
}
