import { randomBytes } from 'node:crypto';
import {
  businesses,
  businessMembers,
  type Db,
  type DbOrTx,
  hashPassword,
  locations,
  newClientKey,
  oneTimeSecrets,
  users,
} from '@switchboard/db';
import type { ConfirmSignupRequest, RegisterRequest } from '@switchboard/shared';
import { isUuid, trialEndDate } from '@switchboard/shared';
import { eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Config } from '../../config.ts';
import { AppError } from '../../errors.ts';
import { signupMail } from '../../jobs/definitions/account-mail.ts';
import type { SystemMail } from '../../jobs/definitions/system-mail.ts';
import { recordAudit } from '../../lib/audit.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { ipKey, type Limiter, type LimitRule } from '../../lib/limiter.ts';
import type { Jobs } from '../../plugins/jobs.ts';
import type { Mailer } from '../../plugins/mailer.ts';
import { startSession } from '../auth/service.ts';
import { lookupIp } from './geo.ts';
import {
  codeFor,
  codeMatches,
  findLinkSecret,
  issueLinkSecret,
  latestCode,
  reserveCode,
  takeTry,
  useCode,
  useLinkSecret,
} from './secrets.ts';

export type SignupCtx = { db: Db; config: Config; mailer: Mailer; limiter: Limiter; jobs: Jobs };

const DAY_MS = 86_400_000;

/**
 * A referral code people can read in a link: the business's name in lowercase words, then a random tail that
 * keeps two businesses of the same name apart (36⁶ tails each).
 */
export function referralCode(name: string): string {
  const words = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, 30)
    .replace(/^-+|-+$/g, '');
  const tail = Array.from(randomBytes(6), (byte) => (byte % 36).toString(36)).join('');
  return words ? `${words}-${tail}` : tail;
}
const HOUR = 3600;
/** How long an emailed confirmation link works. */
export const VERIFY_LINK_DAYS = 2;
/** An emailed sign-up code works for 30 minutes and for at most 5 tries; the page offers another after a minute. */
export const SIGNUP_CODE_MINUTES = 30;
export const SIGNUP_CODE_TRIES = 5;
export const SIGNUP_RESEND_SECONDS = 60;

const rules = {
  /** Emails that say "this address already has an account": one an hour per address. */
  accountExistsMail: { name: 'signup_exists_mail', points: 1, windowSeconds: HOUR },
  /** Sign-ups naming one email address (each sends that address a code, or tells its owner). */
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

// Every email below has a fixed subject and names nothing a person typed: it may reach an address that is not
// the typist's, so it must not carry their words.

async function mailVerificationLink(
  { mailer, config }: Pick<SignupCtx, 'mailer' | 'config'>,
  to: { email: string },
  secret: string,
) {
  await mailer.queue({
    to: to.email,
    subject: 'Confirm your email address for Switchboard',
    text: [
      'Hello,',
      '',
      'Confirm this email address to start sending messages to your customers from Switchboard:',
      verifyUrl(config, secret),
      '',
      `The link works once, for ${VERIFY_LINK_DAYS} days. If it has expired, open it anyway: the page lets you send a new one.`,
      '',
      'If you did not sign up for Switchboard, ignore this email: nothing is sent from your address until it is confirmed.',
    ].join('\n'),
  });
}

/** "Someone signed up with your address": sent instead of saying on screen that the address has an account. */
function accountExistsMail(config: Config, email: string): SystemMail {
  return {
    to: email,
    subject: 'You already have a Switchboard account',
    text: [
      'Someone (probably you) tried to sign up to Switchboard with this email address, which already has an account.',
      '',
      `To carry on, log in at ${config.publicUrl}/ with this email and your password.`,
      `Forgot your password? Ask for a link to choose a new one at ${config.publicUrl}/forgot-password`,
      '',
      'If it was not you, you can ignore this email: nothing about your account has changed.',
    ].join('\n'),
  };
}

function signupCodeMail(email: string, code: string): SystemMail {
  return {
    to: email,
    subject: 'Your Switchboard sign-up code',
    text: [
      'Hello,',
      '',
      `Your code to finish signing up to Switchboard is ${code}`,
      '',
      `Enter it on the sign-up page. It works for ${SIGNUP_CODE_MINUTES} minutes. Do not share it with anyone.`,
      '',
      'If you did not sign up for Switchboard, ignore this email: no account is created without this code.',
    ].join('\n'),
  };
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
  if (!(await emailTaken(ctx.db, email))) return;
  if (await ctx.limiter.take(rules.accountExistsMail, email.toLowerCase())) return;
  await ctx.mailer.queue(accountExistsMail(ctx.config, email));
}

type Registration = z.output<typeof RegisterRequest>;

/** What a sign-up waits to create until its emailed code comes back (kept on the code's row, then forgotten). */
type PendingSignup = {
  email: string;
  full_name: string;
  password_hash: string;
  mobile: string;
  business_name: string;
  country: string;
  timezone: string;
  location: { name: string; address: string | null };
  signup_meta: Record<string, unknown>;
};

/**
 * `POST /business/register`: emails a six-digit code to the address, and creates nothing yet. The answer, and
 * the work done before it, are the same whether or not the address has an account, so the form cannot tell
 * anyone who has one: a new address gets its code, a taken one gets an email saying so (with log in and password
 * reset), and no code will ever match it.
 */
export async function startSignup(
  ctx: SignupCtx,
  input: Registration,
  client: { ip: string },
): Promise<{ email: string; expires_at: string; resend_at: string }> {
  const { db, config } = ctx;
  const target = input.email.toLowerCase();
  await spend(ctx.limiter, rules.perEmail, target, 'sign-ups with this email');
  const taken = await emailTaken(db, input.email);
  const where = await lookupIp(client.ip, config.signup.ipLookup);
  // A referral link names the business that shared it; one that does not exist is ignored.
  const [referrer] = input.meta?.referral
    ? await db
        .select({ id: businesses.id, name: businesses.name })
        .from(businesses)
        .where(
          isUuid(input.meta.referral)
            ? eq(businesses.id, input.meta.referral)
            : eq(businesses.referral_code, input.meta.referral),
        )
    : [];
  // Hashed either way: the argon2 time is most of this request's, and must not differ.
  const pending: PendingSignup = {
    email: input.email,
    full_name: input.full_name,
    password_hash: await hashPassword(input.password),
    mobile: input.mobile,
    business_name: input.business_name,
    country: input.country,
    timezone: input.timezone,
    location: { name: input.location.name, address: input.location.address ?? null },
    signup_meta: {
      ...where,
      tracking: input.meta?.tracking ?? {},
      ...(referrer ? { referred_by: referrer } : {}),
    },
  };
  const reserved = await db.transaction((tx) =>
    reserveCode(tx, {
      kind: 'signup',
      target,
      ttlMs: SIGNUP_CODE_MINUTES * 60_000,
      detail: taken ? { account_exists: true } : { signup: pending },
    }),
  );
  await ctx.jobs.send(signupMail, { secret_id: reserved.id });
  return {
    email: input.email,
    expires_at: reserved.expires_at.toISOString(),
    resend_at: new Date(Date.now() + SIGNUP_RESEND_SECONDS * 1000).toISOString(),
  };
}

/** The `mail.signup` job: the code for a new address, or "you already have an account" (once an hour). */
export async function mailSignup(
  ctx: Pick<SignupCtx, 'db' | 'config' | 'mailer' | 'limiter'>,
  input: { secret_id: string },
): Promise<void> {
  const [row] = await ctx.db.select().from(oneTimeSecrets).where(eq(oneTimeSecrets.id, input.secret_id));
  if (row?.kind !== 'signup' || row.used_at || row.expires_at <= new Date()) return;
  const pending = row.detail?.signup as PendingSignup | undefined;
  if (!pending) {
    if (await ctx.limiter.take(rules.accountExistsMail, row.target)) return;
    await ctx.mailer.deliver(accountExistsMail(ctx.config, row.target));
    return;
  }
  const code = await codeFor(ctx.db, ctx.config.jwtSecret, row.id);
  if (code) await ctx.mailer.deliver(signupCodeMail(pending.email, code));
}

/**
 * `POST /business/register/confirm`: the emailed code creates the business, on a trial, with its owner and
 * first location, its email confirmed (the code proved it), and signs the owner in.
 */
export async function confirmSignup(
  ctx: SignupCtx,
  input: z.output<typeof ConfirmSignupRequest>,
  client: { ip: string; userAgent?: string },
) {
  const { db, config } = ctx;
  const askAgain = 'Ask for a new code.';
  // Not one transaction: a wrong try must stay counted although the request fails.
  const row = await latestCode(db, 'signup', input.email.toLowerCase());
  if (!row || row.used_at)
    throw new AppError('unprocessable', `There is no code waiting for ${input.email}. ${askAgain}`);
  if (row.expires_at <= new Date()) throw new AppError('unprocessable', `That code has expired. ${askAgain}`);
  const taken = await takeTry(db, row.id, SIGNUP_CODE_TRIES);
  if (taken === null)
    throw new AppError('rate_limited', `Too many wrong codes for ${input.email}. ${askAgain}`);
  const pending = row.detail?.signup as PendingSignup | undefined;
  // An address with an account has no code to match: it answers as a wrong code does, try for try.
  if (!pending || !codeMatches(config.jwtSecret, row, input.code)) {
    const left = SIGNUP_CODE_TRIES - taken;
    throw new AppError(
      'unprocessable',
      left > 0
        ? `That code is not right. ${left} ${left === 1 ? 'try' : 'tries'} left.`
        : `That code is not right, and that was the last try. ${askAgain}`,
    );
  }
  const now = new Date();
  let created: { user: typeof users.$inferSelect; business: typeof businesses.$inferSelect };
  try {
    created = await db.transaction(async (tx) => {
      if (!(await useCode(tx, row.id)))
        throw new AppError('unprocessable', `That code has just been used. ${askAgain}`);
      const [user] = await tx
        .insert(users)
        .values({
          email: pending.email,
          full_name: pending.full_name,
          password_hash: pending.password_hash,
          mobile: pending.mobile,
          ...newClientKey(),
        })
        .returning();
      const [business] = await tx
        .insert(businesses)
        .values({
          name: pending.business_name,
          owner_user_id: user!.id,
          timezone: pending.timezone,
          country: pending.country,
          plan: 'trial',
          trial_end_date: trialEndDate(now, config.plans.trialDays),
          referral_code: referralCode(pending.business_name),
          message_limit: config.plans.messageLimit.trial,
          // The code came back from the address: it is confirmed from the start.
          verified: true,
          verified_at: now,
          signup_meta: pending.signup_meta,
        })
        .returning();
      await tx
        .insert(businessMembers)
        .values({ business_id: business!.id, user_id: user!.id, role: 'owner' });
      await tx.insert(locations).values({
        business_id: business!.id,
        name: pending.location.name,
        address: pending.location.address,
        precedence: 0,
      });
      await recordAudit(tx, { business_id: business!.id, user_id: user!.id }, 'business.register', {
        target: business!.id,
        detail: {
          country: pending.country,
          timezone: pending.timezone,
          email: row.target,
          email_confirmed: true,
          ip: client.ip,
        },
      });
      return { user: user!, business: business! };
    });
  } catch (error) {
    // The address got an account between the code being sent and used (another sign-up, an invitation): only
    // whoever reads its mail gets this far, so it can be said plainly.
    if (isUniqueViolation(error)) {
      throw new AppError(
        'conflict',
        `${input.email} has an account now. Log in with it, or reset its password from the login page.`,
      );
    }
    throw error;
  }
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
  await mailVerificationLink(ctx, owner, secret);
  return { sent: true, already_verified: false, email: shown(owner.email) };
}
