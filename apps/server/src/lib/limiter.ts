import ipaddr from 'ipaddr.js';
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
} from 'rate-limiter-flexible';
import { createClient } from 'redis';

/** A kind of limit: `points` uses of one key per `windowSeconds`. */
export type LimitRule = { name: string; points: number; windowSeconds: number };

/**
 * Every rate limit of the server, in one store: Redis when `REDIS_URL` is set, so several app nodes count
 * together, else this process's memory. Rules may differ per key owner (a location's own limits): each
 * distinct rule gets its own counter set, and a key counts against the rule it is taken with.
 */
export type Limiter = {
  /** Spends one use of `key`; null when allowed, else the seconds until a use is free again. */
  take(rule: LimitRule, key: string): Promise<number | null>;
  /** Gives `key` its whole allowance back (e.g. after a correct password). */
  reset(rule: LimitRule, key: string): Promise<void>;
  /** `shared`: counts are kept where every node sees them. */
  readonly shared: boolean;
  /** Resolves when the shared store answers (at once without one). */
  ping(): Promise<void>;
  close(): Promise<void>;
};

type Log = { error(obj: object, msg: string): void };

export async function createLimiter(options: { redisUrl?: string; log: Log }): Promise<Limiter> {
  const redis = options.redisUrl ? createClient({ url: options.redisUrl }) : null;
  if (redis) {
    redis.on('error', (err) => options.log.error({ err }, 'redis (rate limits) error'));
    await redis.connect();
  }
  const limiters = new Map<string, RateLimiterAbstract>();

  const limiterFor = (rule: LimitRule): RateLimiterAbstract => {
    const id = `${rule.name}:${rule.points}:${rule.windowSeconds}`;
    let limiter = limiters.get(id);
    if (!limiter) {
      const base = { keyPrefix: `rl:${id}`, points: rule.points, duration: rule.windowSeconds };
      limiter = redis
        ? new RateLimiterRedis({
            ...base,
            storeClient: redis,
            useRedisPackage: true,
            // While Redis is away, each node keeps counting on its own rather than letting everything through.
            insuranceLimiter: new RateLimiterMemory(base),
          })
        : new RateLimiterMemory(base);
      limiters.set(id, limiter);
    }
    return limiter;
  };

  return {
    shared: redis !== null,
    async ping() {
      if (redis) await redis.ping();
    },
    async take(rule, key) {
      try {
        await limiterFor(rule).consume(key);
        return null;
      } catch (refusal) {
        if (refusal instanceof RateLimiterRes) return Math.max(1, Math.ceil(refusal.msBeforeNext / 1000));
        throw refusal;
      }
    },
    async reset(rule, key) {
      await limiterFor(rule).delete(key);
    },
    async close() {
      if (redis?.isOpen) await redis.quit();
    },
  };
}

/**
 * The key a per-IP limit counts a client address under. An IPv6 client is usually given a whole /64 (one home,
 * one phone, one server), so it could step through fresh addresses for ever: its addresses count together, as
 * the /64 prefix. IPv4, and IPv4 written as IPv6 (`::ffff:1.2.3.4`), count as the IPv4 address. Anything that
 * is not an address (a test's fake client) is its own key.
 */
export function ipKey(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return address.toString();
  const parts = (address as ipaddr.IPv6).parts.slice(0, 4);
  return `${new ipaddr.IPv6([...parts, 0, 0, 0, 0]).toString()}/64`;
}

/** `45 seconds`, `12 minutes`: how long to wait, as a person would say it. */
export function waitText(seconds: number): string {
  if (seconds < 90) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minutes`;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The server's rate limits, shared between nodes when Redis is configured. */
    limiter: Limiter;
  }
}
