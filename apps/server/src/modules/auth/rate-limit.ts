import type { Config } from '../../config.ts';
import { AppError } from '../../errors.ts';
import { ipKey, type Limiter, type LimitRule } from '../../lib/limiter.ts';

/** Whose allowance a login attempt spends: the email's, or (for a browser that signed in before) the browser's. */
export type AttemptKey = { email: string } | { device: string };

/**
 * Login attempts, limited per client IP, and per email address or per known browser. An attempt spends its
 * point before the password is checked, so concurrent guesses cannot all slip in under the limit; a correct
 * password gives the allowance back. Counted in the server's shared limit store.
 */
export function createLoginLimiter(config: Config, limiter: Limiter) {
  const windowSeconds = config.login.windowSeconds;
  const points = config.login.maxPerEmail;
  const byIp: LimitRule = { name: 'login_ip', points: config.login.maxPerIp, windowSeconds };
  const byEmail: LimitRule = { name: 'login_email', points, windowSeconds };
  const byDevice: LimitRule = { name: 'login_device', points, windowSeconds };
  // One "someone is trying your password" email per email address per window.
  const unlockMails: LimitRule = { name: 'login_unlock_mail', points: 1, windowSeconds };

  const tooMany = (seconds: number, more = '') => {
    const minutes = Math.max(1, Math.ceil(seconds / 60));
    return new AppError(
      'rate_limited',
      `Too many login attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.${more}`,
      { headers: { 'retry-after': String(seconds) } },
    );
  };
  // Worded the same whether or not the email has an account.
  const EMAILED =
    ' If this email has an account, we have emailed it a link to sign in from this browser now.';
  const target = (key: AttemptKey) =>
    'email' in key ? { rule: byEmail, k: key.email.toLowerCase() } : { rule: byDevice, k: key.device };

  return {
    async checkIp(ip: string): Promise<void> {
      const wait = await limiter.take(byIp, ipKey(ip));
      if (wait) throw tooMany(wait);
    },
    /** Spends one attempt; a refusal says whether it is the email's first in this window (time to tell them). */
    async spend(key: AttemptKey): Promise<{ error: AppError; firstRefusal: boolean } | null> {
      const { rule, k } = target(key);
      const wait = await limiter.take(rule, k);
      if (!wait) return null;
      const firstRefusal = 'email' in key && (await limiter.take(unlockMails, k)) === null;
      return { error: tooMany(wait, 'email' in key ? EMAILED : ''), firstRefusal };
    },
    async succeeded(key: AttemptKey): Promise<void> {
      const { rule, k } = target(key);
      await limiter.reset(rule, k);
    },
  };
}
