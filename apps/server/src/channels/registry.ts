import type { DbOrTx } from '@switchboard/db';
import type { ReplyRoute } from '@switchboard/shared';
import type { Config } from '../config.ts';
import { PermanentSendError } from '../lib/provider-errors.ts';
import { createSandboxAdapter } from './sandbox/outbound.ts';
import type { ChannelAdapter } from './types.ts';

/** Finds the adapter for a channel at a location (e.g. the location's connected Twilio account), or null. */
export type AdapterResolver = (target: {
  channel: string;
  location_id: string;
}) => Promise<ChannelAdapter | null>;

/** What a send policy sees before a message is stored; it throws an AppError (e.g. 422) to refuse it. */
export type SendCheck = {
  tx: DbOrTx;
  business_id: string;
  location_id: string;
  enquiry_id: string;
  channel: string;
  customer: { id: string; phone: string | null; email: string | null; sms_opted_out: boolean };
  message: string;
  attachments: number;
  /** A provider template chosen in the composer (WhatsApp), when there is one. */
  template?: { name: string; language: string; variables: string[] };
};
export type SendPolicy = (check: SendCheck) => Promise<void>;

/** Where a reply to an enquiry goes now, for channels where that changes (the website chat falls back to SMS). */
export type ReplyRouteResolver = (enquiry: {
  id: string;
  channel: string;
  location_id: string;
  customer_id: string;
}) => Promise<ReplyRoute>;

export type AdapterRegistry = {
  /** Resolvers are asked in the order they were registered; the first adapter found sends. */
  register(resolver: AdapterResolver): void;
  addPolicy(policy: SendPolicy): void;
  forChannel(channel: string, locationId: string): Promise<ChannelAdapter>;
  checkSend(check: SendCheck): Promise<void>;
  /** A channel whose replies may go another way says so here (`GET /enquiries/{id}/reply-route`). */
  describeReplies(channel: string, resolver: ReplyRouteResolver): void;
  replyRoute(enquiry: Parameters<ReplyRouteResolver>[0]): Promise<ReplyRoute>;
};

/**
 * Picks the adapter that sends on a channel for a location. Connected provider accounts win; in sandbox
 * mode every other channel falls back to the sandbox simulator; otherwise the send fails with the reason.
 */
export function createAdapterRegistry(config: Pick<Config, 'sandbox'>): AdapterRegistry {
  const sandbox = createSandboxAdapter();
  const resolvers: AdapterResolver[] = [];
  const policies: SendPolicy[] = [];
  const routes = new Map<string, ReplyRouteResolver>();
  return {
    describeReplies: (channel, resolver) => void routes.set(channel, resolver),
    replyRoute: async (enquiry) =>
      (await routes.get(enquiry.channel)?.(enquiry)) ?? { route: 'channel', detail: null },
    register: (resolver) => void resolvers.push(resolver),
    addPolicy: (policy) => void policies.push(policy),
    async forChannel(channel, locationId) {
      for (const resolve of resolvers) {
        const adapter = await resolve({ channel, location_id: locationId });
        if (adapter) return adapter;
      }
      if (config.sandbox) return sandbox;
      throw new PermanentSendError(`No ${channel} account is connected for this location.`);
    },
    async checkSend(check) {
      for (const policy of policies) await policy(check);
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The channel adapters and send policies; channel plugins register theirs here. */
    channels: AdapterRegistry;
  }
}
