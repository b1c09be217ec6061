import { businesses, users } from '@switchboard/db';
import { normalisePhone } from '@switchboard/shared';
import { eq } from 'drizzle-orm';
import type { Context } from '../../context.ts';
import { AppError } from '../../errors.ts';
import type { VerificationSms } from '../../integrations/sms/verification-sms.ts';
import { ipKey, type LimitRule } from '../../lib/limiter.ts';
import { codeMatches, issueCode, latestCode, takeTry, useCode } from './secrets.ts';
import { type SignupCtx, spend } from './service.ts';

/** A texted code works for 10 minutes and for at most 5 tries; another may be asked for after a minute. */
export const CODE_MINUTES = 10;
export const CODE_TRIES = 5;
export const RESEND_SECONDS = 60;

const rules = {
  perUser: { name: 'mobile_code_user', points: 1, windowSeconds: RESEND_SECONDS },
  perPhone: { name: 'mobile_code_phone', points: 5, windowSeconds: 3600 },
  perIp: { name: 'mobile_code_ip', points: 20, windowSeconds: 3600 },
} satisfies Record<string, LimitRule>;

type MobileCtx = SignupCtx & Pick<Context, 'actor'> & { sms: VerificationSms };

/** The number in E.164, read in the business's country when it is written without one. */
async function readMobile({ db, actor }: Pick<MobileCtx, 'db' | 'actor'>, value: string): Promise<string> {
  const [b] = actor.business_id
    ? await db
        .select({ country: businesses.country })
        .from(businesses)
        .where(eq(businesses.id, actor.business_id))
    : [];
  const phone = normalisePhone(value, (b?.country ?? undefined) as never);
  if (!phone) {
    throw new AppError(
      'unprocessable',
      'Please enter a valid mobile number, with its country code if it is not in your business’s country.',
    );
  }
  return phone;
}

/** `PUT /business/verification/mobile/send-code`: texts a new six-digit code to the signed-in person. */
export async function sendMobileCode(ctx: MobileCtx, input: { mobile: string; ip: string }) {
  const { db, config, actor, sms } = ctx;
  if (sms.mode === 'none') {
    throw new AppError(
      'service_unavailable',
      'Texting codes is not set up on this installation, so mobile numbers cannot be confirmed yet.',
    );
  }
  const mobile = await readMobile(ctx, input.mobile);
  await spend(ctx.limiter, rules.perIp, ipKey(input.ip), 'codes from this network');
  await spend(ctx.limiter, rules.perUser, actor.user_id, 'codes: wait a minute before asking for another');
  await spend(ctx.limiter, rules.perPhone, mobile, 'codes for this number');
  const { code, expires_at } = await issueCode(db, config.jwtSecret, {
    business_id: actor.business_id,
    user_id: actor.user_id,
    target: mobile,
    ttlMs: CODE_MINUTES * 60_000,
  });
  const text = `${code} is your Switchboard code. It works for ${CODE_MINUTES} minutes. Do not share it with anyone.`;
  try {
    await sms.send(mobile, text);
  } catch (error) {
    throw new AppError(
      'service_unavailable',
      `We could not text ${mobile} just now (${error instanceof Error ? error.message : 'the SMS provider failed'}). Check the number and try again.`,
    );
  }
  return {
    mobile,
    expires_at: expires_at.toISOString(),
    resend_at: new Date(Date.now() + RESEND_SECONDS * 1000).toISOString(),
    sandbox_code: sms.mode === 'sandbox' ? code : null,
  };
}

/** `PUT /business/verification/mobile/verify`: the code confirms the number as the person's mobile. */
export async function verifyMobileCode(ctx: Omit<MobileCtx, 'sms'>, input: { phone: string; code: string }) {
  const { db, config, actor } = ctx;
  const mobile = await readMobile(ctx, input.phone);
  // Not one transaction: a wrong try must stay counted although the request fails.
  const row = await latestCode(db, 'mobile_code', mobile, actor.user_id);
  const askAgain = 'Ask for a new code.';
  if (!row || row.used_at)
    throw new AppError('unprocessable', `There is no code waiting for ${mobile}. ${askAgain}`);
  if (row.expires_at <= new Date()) throw new AppError('unprocessable', `That code has expired. ${askAgain}`);
  const taken = await takeTry(db, row.id, CODE_TRIES);
  if (taken === null) throw new AppError('rate_limited', `Too many wrong codes for ${mobile}. ${askAgain}`);
  if (!codeMatches(config.jwtSecret, row, input.code)) {
    const left = CODE_TRIES - taken;
    throw new AppError(
      'unprocessable',
      left > 0
        ? `That code is not right. ${left} ${left === 1 ? 'try' : 'tries'} left.`
        : `That code is not right, and that was the last try. ${askAgain}`,
    );
  }
  return db.transaction(async (tx) => {
    if (!(await useCode(tx, row.id)))
      throw new AppError('unprocessable', 'That code has just been used. Ask for a new code.');
    const verified_at = new Date();
    await tx
      .update(users)
      .set({ mobile, mobile_verified_at: verified_at })
      .where(eq(users.id, actor.user_id));
    return { mobile, verified_at: verified_at.toISOString() };
  });
}
