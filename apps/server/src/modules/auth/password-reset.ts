import { businessMembers, hashPassword, sessions, users } from '@switchboard/db';
import type { PasswordResetComplete } from '@switchboard/shared';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Deps } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { passwordResetMail } from '../../jobs/definitions/account-mail.ts';
import { recordAudit } from '../../lib/audit.ts';
import { ipKey, type LimitRule } from '../../lib/limiter.ts';
import { findLinkSecret, issueLinkSecret, type SecretRow, useLinkSecret } from '../signup/secrets.ts';
import { spend } from '../signup/service.ts';
import { type LoginResult, startSession } from './service.ts';

/** How long an emailed password reset link works. */
export const RESET_LINK_MINUTES = 15;

const rules = {
  perIp: { name: 'password_reset_ip', points: 20, windowSeconds: 3600 },
  /** Links asked for one address, whether or not it has an account (so the limit says nothing either). */
  perEmail: { name: 'password_reset_email', points: 3, windowSeconds: 3600 },
  /** Opening and using links, from one address. */
  usePerIp: { name: 'password_reset_use_ip', points: 30, windowSeconds: 600 },
} satisfies Record<string, LimitRule>;

type ResetCtx = Pick<Deps, 'db' | 'config' | 'limiter' | 'jobs' | 'mailer'>;

const resetUrl = (publicUrl: string, secret: string) =>
  // In the fragment: browsers never send it, so the secret stays out of server logs and Referer headers.
  `${publicUrl}/reset-password#token=${encodeURIComponent(secret)}`;

/**
 * `POST /auth/password-reset`: queues the reset email and answers at once, the same way whether or not the
 * address has an account (the job finds out, and sends nothing when there is none).
 */
export async function requestPasswordReset(
  { limiter, jobs }: Pick<ResetCtx, 'limiter' | 'jobs'>,
  input: { email: string; ip: string },
): Promise<{ email: string; minutes: number }> {
  await spend(limiter, rules.perIp, ipKey(input.ip), 'password reset requests from this network');
  await spend(limiter, rules.perEmail, input.email.toLowerCase(), 'password reset requests for this email');
  await jobs.send(passwordResetMail, { email: input.email });
  return { email: input.email, minutes: RESET_LINK_MINUTES };
}

/**
 * The `mail.password-reset` job: a one-use link for the account with this address, if there is one. A newer
 * link replaces any older one still unused, so only the last email's link works.
 */
export async function mailPasswordReset(
  { db, config, mailer }: Pick<ResetCtx, 'db' | 'config' | 'mailer'>,
  input: { email: string },
): Promise<void> {
  const [user] = await db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(sql`lower(${users.email}) = lower(${input.email})`)
    .limit(1);
  if (!user) return;
  const secret = await issueLinkSecret(db, {
    kind: 'password_reset',
    business_id: null,
    user_id: user.id,
    target: user.email.toLowerCase(),
    ttlMs: RESET_LINK_MINUTES * 60_000,
  });
  // Sent from here, not queued: the link exists only in this email, never in a stored job.
  await mailer.deliver({
    to: user.email,
    subject: 'Reset your Switchboard password',
    text: [
      'Hello,',
      '',
      'Someone (probably you) asked to reset the password of the Switchboard account with this email address.',
      '',
      `To choose a new password, open this link within ${RESET_LINK_MINUTES} minutes (it works once):`,
      resetUrl(config.publicUrl, secret),
      '',
      'Choosing a new password signs the account out everywhere else.',
      '',
      'If you did not ask for this, ignore this email: your password stays as it is.',
    ].join('\n'),
  });
}

/** Why a link no longer works, in words the page shows beside "send a new link". */
function unusable(row: SecretRow | undefined): AppError {
  if (!row)
    return new AppError(
      'unprocessable',
      'This password reset link is not one of ours. Open the link from the email again, or ask for a new one.',
    );
  if (row.used_at)
    return new AppError(
      'unprocessable',
      'This password reset link has already been used, or a newer one was sent since. Ask for a new one if you still need it.',
    );
  return new AppError(
    'unprocessable',
    `This password reset link has expired: links work for ${RESET_LINK_MINUTES} minutes. Ask for a new one.`,
  );
}

/** The link's row while it still works, else the reason it does not. */
async function openLink({ db }: Pick<ResetCtx, 'db'>, token: string): Promise<SecretRow> {
  const row = await findLinkSecret(db, 'password_reset', token);
  if (!row?.user_id || row.used_at || row.expires_at <= new Date()) throw unusable(row);
  return row;
}

/** `POST /auth/password-reset/check`: the account the link is for, while it works (the page opens on it). */
export async function checkPasswordReset(ctx: ResetCtx, input: { token: string; ip: string }) {
  await spend(ctx.limiter, rules.usePerIp, ipKey(input.ip), 'attempts');
  const row = await openLink(ctx, input.token);
  const [user] = await ctx.db.select({ email: users.email }).from(users).where(eq(users.id, row.user_id!));
  if (!user) throw unusable(undefined);
  return { email: user.email, expires_at: row.expires_at.toISOString() };
}

/**
 * `POST /auth/password-reset/complete`: sets the new password, once per link; every session of the person ends
 * (tokens issued before carry an older version), the audit log of each business they are in says so, and this
 * browser is signed in afresh.
 */
export async function completePasswordReset(
  ctx: ResetCtx,
  input: z.output<typeof PasswordResetComplete>,
  client: { ip: string; userAgent?: string },
): Promise<LoginResult & { user_id: string; email: string }> {
  await spend(ctx.limiter, rules.usePerIp, ipKey(client.ip), 'attempts');
  await openLink(ctx, input.token);
  const passwordHash = await hashPassword(input.password);
  const user = await ctx.db.transaction(async (tx) => {
    // The conditional use decides between two submissions of one link: one wins, the other is told.
    const used = await useLinkSecret(tx, 'password_reset', input.token);
    if (!used?.user_id) throw unusable(await findLinkSecret(tx, 'password_reset', input.token));
    const [person] = await tx
      .update(users)
      .set({ password_hash: passwordHash, token_version: sql`${users.token_version} + 1` })
      .where(eq(users.id, used.user_id))
      .returning();
    if (!person) throw unusable(undefined);
    const ended = await tx
      .update(sessions)
      .set({ revoked_at: new Date() })
      .where(and(eq(sessions.user_id, person.id), isNull(sessions.revoked_at)))
      .returning({ id: sessions.id });
    const memberships = await tx
      .select({ business_id: businessMembers.business_id })
      .from(businessMembers)
      .where(eq(businessMembers.user_id, person.id));
    // Each business's owners see it in their audit log; someone in none still leaves a line for administrators.
    const where = memberships.length ? memberships.map((m) => m.business_id) : [null];
    for (const business_id of where) {
      await recordAudit(tx, { business_id, user_id: person.id }, 'user.password_reset', {
        target: person.id,
        detail: { email: person.email, ip: client.ip, sessions_ended: ended.length },
      });
    }
    return person;
  });
  const session = await startSession(ctx, user, { ip: client.ip, userAgent: client.userAgent });
  return { ...session, email: user.email };
}
