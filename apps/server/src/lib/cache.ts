import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { LRUCache } from 'lru-cache';

/**
 * Values derived from one business (its feature flags), kept in this process for a short time. Whatever
 * changes a business calls `invalidate`; the TTL bounds how stale another node's copy can get.
 */
export class BusinessCache {
  readonly #entries: LRUCache<string, Map<string, unknown>>;

  constructor({ max = 1000, ttlMs = 60_000 }: { max?: number; ttlMs?: number } = {}) {
    this.#entries = new LRUCache({ max, ttl: ttlMs });
  }

  async remember<V>(businessId: string, key: string, load: () => Promise<V>): Promise<V> {
    let slots = this.#entries.get(businessId);
    if (slots?.has(key)) return slots.get(key) as V;
    if (!slots) {
      slots = new Map();
      this.#entries.set(businessId, slots);
    }
    const value = await load();
    // Invalidated while loading: what was loaded may predate the change, so it is not kept.
    if (this.#entries.peek(businessId) === slots) slots.set(key, value);
    return value;
  }

  invalidate(businessId: string): void {
    this.#entries.delete(businessId);
  }

  clear(): void {
    this.#entries.clear();
  }

  get size(): number {
    return this.#entries.size;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    businessCache: BusinessCache;
  }
}

export const businessCachePlugin = fp(async (app: FastifyInstance) => {
  app.decorate('businessCache', new BusinessCache());
});
