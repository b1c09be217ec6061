import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { Config } from '../../config.ts';
import { AppError } from '../../errors.ts';

/** Login attempts, limited per client IP and per email address (failed attempts only for the email). */
export function createLoginLimiter(config: Config) {
  const duration = config.login.windowSeconds;
  const byIp = new RateLimiterMemory({ keyPrefix: 'login_ip', points: config.login.maxPerIp, duration });
  const byEmail = new RateLimiterMemory({
    keyPrefix: 'login_email',
    points: config.login.maxPerEmail,
    duration,
  });

  const tooMany = (res: unknown) => {
    const seconds = res instanceof RateLimiterRes ? Math.ceil(res.msBeforeNext / 1000) : duration;
    const minutes = Math.max(1, Math.ceil(seconds / 60));
    return new AppError(
      'rate_limited',
      `Too many login attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
      { headers: { 'retry-after': String(seconds) } },
    );
  };

  return {
    async check(ip: string, email: string): Promise<void> {
      const key = email.toLowerCase();
      const emailState = await byEmail.get(key);
      if (emailState && emailState.consumedPoints >= config.login.maxPerEmail) throw tooMany(emailState);
      await byIp.consume(ip).catch((res) => {
        throw tooMany(res);
      });
    },
    async failed(email: string): Promise<void> {
      await byEmail.consume(email.toLowerCase()).catch(() => {});
    },
    async succeeded(email: string): Promise<void> {
      await byEmail.delete(email.toLowerCase());
    },
  };
}
