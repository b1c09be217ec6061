import {
  businesses,
  businessMembers,
  type Db,
  type DbOrTx,
  hashPassword,
  locations,
  newClientKey,
  users,
} from '@switchboard/db';
import type { RegisterRequest } from '@switchboard/shared';
import { eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Config } from '../../config.ts';
import { AppError } from '../../errors.ts';
import { recordAudit } from '../../lib/audit.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { ipKey, type Limiter, type LimitRule } from '../../lib/limiter.ts';
import type { Mailer } from '../../plugins/mailer.ts';
import { startSession } from '../auth/service.ts';
import { lookupIp } from './geo.ts';
import { findLinkSecret, issueLinkSecret, useLinkSecret } from './secrets.ts';

export type SignupCtx = { db: Db; config: Config; mailer: Mailer; limiter: Limiter };

const DAY_MS = 86_400_000;
const HOUR = 3600;
/** How long an emailed confirmation link works. */
export const VERIFY_LINK_DAYS = 2;

const rules = {
  /** Emails that say "this address already has an account": one an hour per address. */
  accountExistsMail: { name: 'signup_exists_mail', points: 1, windowSeconds: HOUR },
  /** Sign-ups naming one email address. */
  perEmail: { name: 'signup_email', points: 5, windowSeconds: HOUR },
  /** New confirmation links for one business (or one old link). */
  resend: { name: 'signup_resend', points: 3, windowSeconds: HOUR },
  resendPerIp: { name: 'signup_resend_ip', points: 20, windowSeconds: HOUR },
  /** Email checks from one address. */
  validatePerIp: { name: 'signup_validate_ip', points: 60, windowSeconds: 600 },
} satisfies Record<string, LimitRule>;

export const tooMany = (seconds: number, what: string) => {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return new AppError(
    'rate_limited',
    `Too many ${what}. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    { headers: { 'retry-after': String(seconds) } },
  );
};

export async function spend(limiter: Limiter, rule: LimitRule, key: string, what: string): Promise<void> {
  const wait = await limiter.take(rule, key);
  if (wait) throw tooMany(wait, what);
}

const verifyUrl = (config: Config, secret: string) =>
  `${config.publicUrl}/signup/confirm?secret=${encodeURIComponent(secret)}`;

async function mailVerificationLink(
  { mailer, config }: Pick<SignupCtx, 'mailer' | 'config'>,
  to: { email: string; full_name: string },
  businessName: string,
  secret: string,
) {
  await mailer.queue({
    to: to.email,
    subject: `Confirm your email for ${businessName} on Switchboard`,
    text: [
      `Hi ${to.full_name || 'there'},`,
      '',
      `Confirm your email address to start sending messages to your customers from ${businessName}:`,
      verifyUrl(config, secret),
      '',
      `The link works once, for ${VERIFY_LINK_DAYS} days. If it has expired, open it anyway: the page lets you send a new one.`,
      '',
      'If you did not sign up for Switchboard, ignore this email: nothing is sent from your address until it is confirmed.',
    ].join('\n'),
  });
}

/** "Someone signed up with your address": sent instead of saying on screen that the address has an account. */
async function mailAccountExists(ctx: SignupCtx, email: string) {
  if (await ctx.limiter.take(rules.accountExistsMail, email.toLowerCase())) return;
  await ctx.mailer.queue({
    to: email,
    subject: 'You already have a Switchboard account',
    text: [
      'Someone (probably you) tried to sign up to Switchboard with this email address, which already has an account.',
      '',
      `To carry on, log in at ${ctx.config.publicUrl}/ with this email and your password.`,
      '',
      'If it was not you, you can ignore this email: nothing about your account has changed.',
    ].join('\n'),
  });
}

async function emailTaken(db: DbOrTx, email: string): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email})`)
    .limit(1);
  return Boolean(row);
}

/**
 * `PUT /business/validators/email`: whether the text is an address one can sign up with. The answer is the same
 * whether or not the address has an account (so the form cannot be used to find out who has one); a person who
 * does have one is told by email instead.
 */
export async function checkSignupEmail(ctx: SignupCtx, email: string, ip: string): Promise<void> {
  await spend(ctx.limiter, rules.validatePerIp, ipKey(ip), 'email checks');
  if (await emailTaken(ctx.db, email)) await mailAccountExists(ctx, email);
}

type Registration = z.output<typeof RegisterRequest>;

/**
 * A new business with its owner and first location, on a trial, signed in at once. Its email is confirmed
 * by the emailed link; until then it can use everything except send to customers.
 */
export async function register(
  ctx: SignupCtx,
  input: Registration,
  client: { ip: string; userAgent?: string },
) {
  const { db, config } = ctx;
  await spend(ctx.limiter, rules.perEmail, input.email.toLowerCase(), 'sign-ups with this email');
  const accountExists = () =>
    new AppError(
      'conflict',
      'We could not create an account with this email. If the address is yours, we have emailed it what to do next.',
    );
  if (await emailTaken(db, input.email)) {
    await mailAccountExists(ctx, input.email);
    throw accountExists();
  }
  const where = await lookupIp(client.ip, config.signup.ipLookup);
  // A referral link names the business that shared it; one that does not exist is ignored.
  const [referrer] = input.meta?.referral
    ? await db
        .select({ id: businesses.id, name: businesses.name })
        .from(businesses)
        .where(eq(businesses.id, input.meta.referral))
    : [];
  const passwordHash = await hashPassword(input.password);
  const now = new Date();
  let created: { user: typeof users.$inferSelect; business: typeof businesses.$inferSelect; secret: string };
  try {
    created = await db.transaction(async (tx) => {
      const [user] = await tx
        .insert(users)
        .values({
          email: input.email,
          full_name: input.full_name,
          password_hash: passwordHash,
          mobile: input.mobile,
          ...newClientKey(),
        })
        .returning();
      const [business] = await tx
        .insert(businesses)
        .values({
          name: input.business_name,
          owner_user_id: user!.id,
          timezone: input.timezone,
          country: input.country,
          plan: 'trial',
          trial_end_date: new Date(now.getTime() + config.plans.trialDays * DAY_MS),
          message_limit: config.plans.messageLimit.trial,
          verified: false,
          signup_meta: {
            ...where,
            tracking: input.meta?.tracking ?? {},
            ...(referrer ? { referred_by: referrer } : {}),
          },
        })
        .returning();
      await tx
        .insert(businessMembers)
        .values({ business_id: business!.id, user_id: user!.id, role: 'owner' });
      await tx.insert(locations).values({
        business_id: business!.id,
        name: input.location.name,
        address: input.location.address ?? null,
        precedence: 0,
      });
      const secret = await issueLinkSecret(tx, {
        kind: 'email_verification',
        business_id: business!.id,
        user_id: user!.id,
        target: input.email.toLowerCase(),
        ttlMs: VERIFY_LINK_DAYS * DAY_MS,
      });
      await recordAudit(tx, { business_id: business!.id, user_id: user!.id }, 'business.register', {
        target: business!.id,
        detail: { country: input.country, timezone: input.timezone, ip: client.ip },
      });
      return { user: user!, business: business!, secret };
    });
  } catch (error) {
    // Two sign-ups with one address at once: the second finds the first's row.
    if (isUniqueViolation(error)) throw accountExists();
    throw error;
  }
  await mailVerificationLink(ctx, created.user, created.business.name, created.secret);
  const session = await startSession({ db, config }, created.user, {
    businessId: created.business.id,
    ip: client.ip,
    userAgent: client.userAgent,
  });
  return {
    token: session.token,
    key: session.key,
    iv: session.iv,
    business_id: created.business.id,
    email: created.user.email,
  };
}

const alreadyUsed = () =>
  new AppError(
    'unprocessable',
    'This confirmation link has already been used or has expired. Send a new one from this page.',
  );

/** `PUT /business/mybusiness/verify`: the emailed link confirms the business's email, once. */
export async function verifyEmail(ctx: Pick<SignupCtx, 'db'>, secret: string) {
  return ctx.db.transaction(async (tx) => {
    const row = await useLinkSecret(tx, 'email_verification', secret);
    if (!row?.business_id) {
      // A link used before on a business that is verified now: say so rather than "expired".
      const seen = await findLinkSecret(tx, 'email_verification', secret);
      const [b] = seen?.business_id
        ? await tx.select().from(businesses).where(eq(businesses.id, seen.business_id))
        : [];
      if (b?.verified) return { verified: true as const, business_id: b.id, business_name: b.name };
      throw alreadyUsed();
    }
    const [b] = await tx
      .update(businesses)
      .set({ verified: true, verified_at: sql`coalesce(${businesses.verified_at}, now())` })
      .where(eq(businesses.id, row.business_id))
      .returning();
    if (!b) throw alreadyUsed();
    await recordAudit(tx, { business_id: b.id, user_id: row.user_id }, 'business.verify_email', {
      target: b.id,
      detail: { email: row.target },
    });
    return { verified: true as const, business_id: b.id, business_name: b.name };
  });
}

const hideEmail = (email: string) => {
  const [local = '', domain = ''] = email.split('@');
  return `${local.slice(0, 1)}•••@${domain}`;
};

/**
 * `PUT /business/register/resend-link`: a new confirmation link (the older ones stop working) for the signed-in
 * business, or for the business an old link belonged to; it goes to the owner's address.
 */
export async function resendLink(
  ctx: SignupCtx,
  input: { businessId?: string | null; secret?: string | null; ip: string },
) {
  await spend(ctx.limiter, rules.resendPerIp, ipKey(input.ip), 'requests for a new link');
  let businessId = input.businessId ?? null;
  if (!businessId && input.secret) {
    const old = await findLinkSecret(ctx.db, 'email_verification', input.secret);
    businessId = old?.business_id ?? null;
    if (!businessId) {
      throw new AppError(
        'not_found',
        'This link is not one of ours. Log in to send a new confirmation link.',
      );
    }
  }
  if (!businessId) throw new AppError('unauthenticated', 'Please log in to continue.');
  const [found] = await ctx.db
    .select({ business: businesses, owner: users })
    .from(businesses)
    .leftJoin(users, eq(users.id, businesses.owner_user_id))
    .where(eq(businesses.id, businessId));
  if (!found) throw new AppError('not_found', 'Business not found.');
  const { business, owner } = found;
  const shown = (email: string) => (input.businessId ? email : hideEmail(email));
  if (business.verified) return { sent: false, already_verified: true, email: null };
  if (!owner) throw new AppError('unprocessable', 'This business has no owner to send the link to.');
  await spend(ctx.limiter, rules.resend, business.id, 'new confirmation links for this business');
  const secret = await issueLinkSecret(ctx.db, {
    kind: 'email_verification',
    business_id: business.id,
    user_id: owner.id,
    target: owner.email.toLowerCase(),
    ttlMs: VERIFY_LINK_DAYS * DAY_MS,
  });
  await mailVerificationLink(ctx, owner, business.name, secret);
  return { sent: true, already_verified: false, email: shown(owner.email) };
}
