import type { Db } from '@switchboard/db';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import type { AdapterRegistry } from './channels/registry.ts';
import type { Config } from './config.ts';
import type { EventBus } from './events/bus.ts';
import type { Billing } from './integrations/stripe/billing.ts';
import type { Payments } from './integrations/stripe/payments.ts';
import type { BusinessCache } from './lib/cache.ts';
import type { Limiter } from './lib/limiter.ts';
import type { Actor } from './plugins/auth.ts';
import type { Jobs } from './plugins/jobs.ts';
import type { Mailer } from './plugins/mailer.ts';

/**
 * The parts of the app a service may use. Services take one object, `verb({ db, actor, … }, input)`, and
 * destructure what they need, so a new dependency is a new field rather than a new positional argument, and
 * a job or a test hands the same shape as a route does.
 */
export type Deps = {
  db: Db;
  config: Config;
  events: EventBus;
  jobs: Jobs;
  channels: AdapterRegistry;
  cache: BusinessCache;
  limiter: Limiter;
  mailer: Mailer;
  /** Invoice payments (Stripe, or the sandbox's); null when this server takes none. */
  payments: Payments | null;
  /** The Switchboard subscription (Stripe Billing, or the sandbox's); null when plans are not sold here. */
  billing: Billing | null;
  log: FastifyBaseLogger;
};

/** A service call made for a signed-in person: the app's parts and who is acting. */
export type Context = Deps & { actor: Actor };

/** What most services use: the database and who is acting. */
export type DbActor = Pick<Context, 'db' | 'actor'>;

declare module 'fastify' {
  interface FastifyInstance {
    payments: Payments | null;
    billing: Billing | null;
  }
  interface FastifyRequest {
    /** The context of this request's service calls (after `authenticate`, `actor` is the signed-in user). */
    ctx: Context;
  }
}

/** The app's parts, as jobs and listeners (which act for nobody) hand them to services. */
export function depsOf(app: FastifyInstance): Deps {
  return {
    db: app.db,
    config: app.config,
    events: app.events,
    jobs: app.jobs,
    channels: app.channels,
    cache: app.businessCache,
    limiter: app.limiter,
    mailer: app.mailer,
    payments: app.payments,
    billing: app.billing,
    log: app.log,
  };
}

/** Gives every request `request.ctx`, built on first use from the app's parts and the request's actor. */
export function decorateContext(app: FastifyInstance): void {
  const built = new WeakMap<FastifyRequest, Context>();
  app.decorateRequest('ctx', {
    getter(this: FastifyRequest): Context {
      let ctx = built.get(this);
      if (!ctx) {
        ctx = { ...depsOf(app), log: this.log, actor: this.actor };
        built.set(this, ctx);
      }
      return ctx;
    },
  });
}
