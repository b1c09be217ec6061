import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { Config } from '../../config.ts';
import { AppError } from '../../errors.ts';

/** Whose allowance a login attempt spends: the email's, or (for a browser that signed in before) the browser's. */
export type AttemptKey = { email: string } | { device: string };

/**
 * Login attempts, limited per client IP, and per email address or per known browser. An attempt spends its
 * point before the password is checked, so concurrent guesses cannot all slip in under the limit; a correct
 * password gives the allowance back.
 */
export function createLoginLimiter(config: Config) {
  const duration = config.login.windowSeconds;
  const points = config.login.maxPerEmail;
  const byIp = new RateLimiterMemory({ keyPrefix: 'login_ip', points: config.login.maxPerIp, duration });
  const byEmail = new RateLimiterMemory({ keyPrefix: 'login_email', points, duration });
  const byDevice = new RateLimiterMemory({ keyPrefix: 'login_device', points, duration });
  // One "someone is trying your password" email per email address per window.
  const unlockMails = new RateLimiterMemory({ keyPrefix: 'login_unlock_mail', points: 1, duration });

  const tooMany = (res: unknown, more = '') => {
    const seconds = res instanceof RateLimiterRes ? Math.ceil(res.msBeforeNext / 1000) : duration;
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
    'email' in key ? { limiter: byEmail, k: key.email.toLowerCase() } : { limiter: byDevice, k: key.device };

  return {
    async checkIp(ip: string): Promise<void> {
      await byIp.consume(ip).catch((res) => {
        throw tooMany(res);
      });
    },
    /** Spends one attempt; a refusal says whether it is the email's first in this window (time to tell them). */
    async spend(key: AttemptKey): Promise<{ error: AppError; firstRefusal: boolean } | null> {
      const { limiter, k } = target(key);
      try {
        await limiter.consume(k);
        return null;
      } catch (res) {
        const firstRefusal =
          'email' in key &&
          (await unlockMails.consume(k).then(
            () => true,
            () => false,
          ));
        return { error: tooMany(res, 'email' in key ? EMAILED : ''), firstRefusal };
      }
    },
    async succeeded(key: AttemptKey): Promise<void> {
      const { limiter, k } = target(key);
      await limiter.delete(k);
    },
  };
}
