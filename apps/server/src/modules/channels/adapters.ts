import { type DbOrTx, messages } from '@switchboard/db';
import type { Attachment, Provider } from '@switchboard/shared';
import { and, eq, max } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { providerOfChannel } from '../../channels/catalogue.ts';
import { createRbmAdapter } from '../../channels/google-rcs/outbound.ts';
import { graphTargetOf } from '../../channels/meta/graph.ts';
import {
  createSendApiAdapter,
  createWhatsAppAdapter,
  insideCustomerWindow,
} from '../../channels/meta/outbound.ts';
import type { SendCheck } from '../../channels/registry.ts';
import { createTwilioAdapter } from '../../channels/twilio/outbound.ts';
import type { Account, ChannelAdapter, OutboundMessage } from '../../channels/types.ts';
import { AppError } from '../../errors.ts';
import { setSmsOptOut } from '../customers/service.ts';
import { locationAccount } from './accounts.ts';
import { signedMediaUrl } from './media-url.ts';

export const SMS_OPTED_OUT =
  'This customer has opted out of SMS (they replied STOP). They must text START to receive messages again.';
export const WHATSAPP_WINDOW_CLOSED =
  'More than 24 hours have passed since this customer last messaged on WhatsApp, so WhatsApp only allows approved templates. Send a template instead; free text is possible again once they reply.';

/** The customer's latest inbound message on a channel (the start of Meta's 24-hour windows). */
export async function lastInboundAt(db: DbOrTx, customerId: string, channel: string): Promise<Date | null> {
  const [row] = await db
    .select({ at: max(messages.created_at) })
    .from(messages)
    .where(
      and(eq(messages.customer_id, customerId), eq(messages.channel, channel), eq(messages.direction, 'in')),
    );
  return row?.at ? new Date(row.at) : null;
}

/** The adapter that sends through a connected account. */
export function adapterFor(app: FastifyInstance, account: Account): ChannelAdapter {
  const { providers, publicUrl } = app.config;
  const mediaUrl = (a: Attachment) => signedMediaUrl(app.config, a.id);
  const lastInbound = async (m: OutboundMessage) =>
    m.customer_id ? lastInboundAt(app.db, m.customer_id, m.channel) : null;
  const provider = account.provider as Provider;
  switch (provider) {
    case 'twilio': {
      const c = (account as Account<'twilio'>).config;
      return createTwilioAdapter({
        credentials: {
          base: providers.twilioApiBase,
          timeoutMs: providers.timeoutMs,
          account_sid: c.account_sid,
          auth_token: c.auth_token,
        },
        phone_number: c.phone_number,
        messaging_service_sid: c.messaging_service_sid,
        statusCallbackUrl: (id) => `${publicUrl}/webhooks/twilio/messaging/status?m=${id}`,
        mediaUrl,
        onOptedOut: async (m) => {
          if (m.customer_id) await setSmsOptOut(app.db, m.customer_id, true);
        },
      });
    }
    case 'whatsapp': {
      const c = (account as Account<'whatsapp'>).config;
      return createWhatsAppAdapter({
        graph: graphTargetOf(providers, c),
        phone_number_id: c.phone_number_id,
        mediaUrl,
      });
    }
    case 'messenger': {
      const c = (account as Account<'messenger'>).config;
      return createSendApiAdapter({
        provider: 'messenger',
        graph: graphTargetOf(providers, c),
        path: `/${c.page_id}/messages`,
        mediaUrl,
        lastInboundAt: lastInbound,
      });
    }
    case 'instagram': {
      const c = (account as Account<'instagram'>).config;
      return createSendApiAdapter({
        provider: 'instagram',
        graph: graphTargetOf(providers, c),
        path: '/me/messages',
        mediaUrl,
        lastInboundAt: lastInbound,
      });
    }
    case 'google_rcs': {
      const c = (account as Account<'google_rcs'>).config;
      return createRbmAdapter({
        base: providers.rbmApiBase,
        tokenUrl: providers.googleTokenUrl,
        timeoutMs: providers.timeoutMs,
        agent_id: c.agent_id,
        service_account_json: c.service_account_json,
        mediaUrl,
      });
    }
    default: {
      const never: never = provider;
      return never;
    }
  }
}

/** Plugs the provider adapters and their send rules into the channel registry. */
export function registerChannelAdapters(app: FastifyInstance): void {
  app.channels.register(async ({ channel, location_id }) => {
    const provider = providerOfChannel(channel);
    if (!provider) return null;
    const account = await locationAccount(app.db, app.config.encryptionKey, location_id, provider);
    return account ? { key: account.row.id, ...adapterFor(app, account) } : null;
  });

  app.channels.addPolicy(async (check: SendCheck) => {
    if ((check.channel === 'sms' || check.channel === 'mms') && check.customer.sms_opted_out) {
      throw new AppError('unprocessable', SMS_OPTED_OUT);
    }
  });

  // WhatsApp's rule applies to the real WhatsApp account; the sandbox simulator has no window.
  app.channels.addPolicy(async (check: SendCheck) => {
    if (check.channel !== 'whatsapp' || check.template) return;
    const account = await locationAccount(check.tx, app.config.encryptionKey, check.location_id, 'whatsapp');
    if (!account) return;
    const last = await lastInboundAt(check.tx, check.customer.id, 'whatsapp');
    if (!insideCustomerWindow(last)) throw new AppError('unprocessable', WHATSAPP_WINDOW_CLOSED);
  });
}
