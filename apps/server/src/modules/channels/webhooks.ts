import { businessMembers, uploads } from '@switchboard/db';
import { isUuid } from '@switchboard/shared';
import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { LRUCache } from 'lru-cache';
import { rcsWebhooks } from '../../channels/google-rcs/webhooks.ts';
import { metaWebhooks } from '../../channels/meta/webhooks.ts';
import { isCallStatus, parseVoiceIdentity } from '../../channels/twilio/voice.ts';
import { twilioVoiceWebhooks } from '../../channels/twilio/voice-webhooks.ts';
import { twilioWebhooks } from '../../channels/twilio/webhooks.ts';
import type { Account, WebhookContext, WebhookRoutes } from '../../channels/types.ts';
import { WEBHOOK_BODY_LIMIT } from '../../channels/webhook-http.ts';
import { AppError, notFound } from '../../errors.ts';
import { callRecording } from '../../jobs/definitions/call-recording.ts';
import { sendUpload } from '../../lib/file-response.ts';
import { storableText } from '../../lib/text.ts';
import {
  applyCallStatus,
  dialEnded,
  placeOutgoingCall,
  recordingReady,
  takeIncomingCall,
} from '../calls/service.ts';
import { deskPhoneOwner } from '../calls/sip.ts';
import { findTrackingNumber } from '../calls/tracking-numbers.ts';
import { providerTranscribed } from '../calls/transcribe.ts';
import { queueProfileLookup } from '../customers/naming.ts';
import { customerOfMessage, setSmsOptOut } from '../customers/service.ts';
import { accountsOf, accountsWhere, type Warn } from './accounts.ts';
import { applyProviderStatus, applyUnsend, applyWatermark } from './ingest.ts';
import { verifyMediaUrl } from './media-url.ts';

/** Every messaging provider's webhooks: adding a provider is one line here. */
const PROVIDER_WEBHOOKS: WebhookRoutes[] = [twilioWebhooks, twilioVoiceWebhooks, metaWebhooks, rcsWebhooks];

/** What provider webhooks may ask of the app (see WebhookContext): accounts, and the inbound pipeline. */
function webhookContext(app: FastifyInstance): WebhookContext {
  const key = app.config.encryptionKey;
  const warn: Warn = (detail, message) => app.log.warn(detail, message);
  // The accounts a webhook address names, kept for a minute so a burst of webhooks costs no look-ups: dropped
  // when an account changes here; a change made on another node is picked up by the `fresh` retry providers
  // make when a signature does not verify, or after the minute. A miss is never kept.
  const found = new LRUCache<string, Account[]>({ max: 10_000, ttl: 60_000 });
  app.events.on('channels.changed', () => found.clear());
  return {
    signedUrl: (request) => `${app.config.publicUrl}${request.url}`,
    accounts: {
      async where(provider, query, options) {
        const k = JSON.stringify([provider, query.address ?? null, query.configField ?? null]);
        const cached = options?.fresh ? undefined : found.get(k);
        if (cached) return cached as Account<typeof provider>[];
        const accounts = await accountsWhere(app.db, key, provider, query, warn);
        if (accounts.length) found.set(k, accounts);
        else found.delete(k);
        return accounts;
      },
      of: (providers) => accountsOf(app.db, key, providers, warn),
    },
    receive: (account, message) =>
      app.inbound.receive({ ...message, location_id: account.row.location_id, account_id: account.row.id }),
    async status(report) {
      await applyProviderStatus(app, {
        businessIds: report.business_ids,
        provider: report.provider,
        provider_message_id: report.provider_message_id,
        our_message_id: report.our_message_id,
        status: report.status,
        error: report.error,
      });
      if (report.opted_out) {
        const customerId = await customerOfMessage(app.db, report.provider, report.provider_message_id);
        if (customerId) await setSmsOptOut(app.db, customerId, true);
      }
    },
    async watermark(report) {
      await applyWatermark(app, {
        businessId: report.business_id,
        provider: report.provider,
        channel: report.channel,
        external_id: report.external_id,
        watermark: report.watermark,
        status: report.status,
      });
    },
    async unsent(account, report) {
      await applyUnsend(app, {
        business_id: account.row.business_id,
        provider: report.provider,
        provider_message_id: report.provider_message_id,
        at: new Date(),
      });
    },
    profileWanted: (account, externalId) =>
      queueProfileLookup(app, { account_id: account.row.id, external_id: externalId }),
    calls: {
      incoming: (account, call) =>
        takeIncomingCall(app, {
          receive: (message) => app.inbound.receive({ ...message, account_id: account.row.id }),
          location_id: account.row.location_id,
          provider: account.row.provider,
          ...call,
        }),
      deskPhone: (address) => deskPhoneOwner(app.db, address),
      trackingNumber: (number, businessIds) => findTrackingNumber(app.db, number, businessIds),
      async outgoing(account, call) {
        // The browser's identity was minted for a member of the account's business at its location.
        if (!(await memberOf(app, [account.row.business_id], call.user_id)))
          return { refuse: 'This phone is not signed in to the business any more.' };
        return placeOutgoingCall(app, {
          business_id: account.row.business_id,
          location_id: account.row.location_id,
          provider: account.row.provider,
          caller_id: (account.config as { phone_number?: string | null }).phone_number ?? account.row.address,
          ...call,
        });
      },
      async status(report) {
        if (!isCallStatus(report.status)) return;
        // A browser's or desk phone's leg names its person; only a member of the call's business can have taken it.
        const rang =
          parseVoiceIdentity(report.answered_by_identity) ??
          (report.status === 'in-progress'
            ? await deskPhoneOwner(app.db, report.answered_by_identity)
            : null);
        await applyCallStatus(app, {
          business_ids: report.business_ids,
          provider: report.provider,
          sid: report.sid,
          parent_sid: report.parent_sid,
          status: report.status,
          duration: report.duration,
          answered_by: rang ? await memberOf(app, report.business_ids, rang.user_id) : null,
        });
      },
      dialEnded: (report) => dialEnded(app, report),
      transcribed: (account, report) =>
        providerTranscribed(app, {
          business_ids: [account.row.business_id],
          provider: account.row.provider,
          ...report,
        }),
      async recording(account, report) {
        const call = await recordingReady(app, {
          business_ids: [account.row.business_id],
          provider: account.row.provider,
          sid: report.sid,
          recording_sid: report.recording_sid,
          duration: report.duration,
          channels: report.channels,
          voicemail: report.voicemail,
        });
        if (call && !call.recording_upload_id)
          await app.jobs.send(
            callRecording,
            { call_id: call.id, account_id: account.row.id, recording_url: report.recording_url },
            { singletonKey: `${call.id}:${report.recording_sid}` },
          );
      },
    },
  };
}

/**
 * Everything a provider sends is, first, what a customer typed or what their phone put in a field: a NUL or
 * half an emoji anywhere (a number, a name, a status's error text, an address an unsigned request names)
 * would be refused by the database and answer 500 until the provider gave up. So every value crossing from
 * provider code into the app is cleaned once, here (NUL removed, a lone surrogate made U+FFFD); accounts are
 * the app's own and pass as they are.
 */
function storableContext(ctx: WebhookContext): WebhookContext {
  const clean = storableText;
  const { calls } = ctx;
  return {
    signedUrl: ctx.signedUrl,
    accounts: {
      where: (provider, query, options) => ctx.accounts.where(provider, clean(query), options),
      of: ctx.accounts.of,
    },
    receive: (account, message) => ctx.receive(account, clean(message)),
    status: (report) => ctx.status(clean(report)),
    watermark: (report) => ctx.watermark(clean(report)),
    unsent: (account, report) => ctx.unsent(account, clean(report)),
    profileWanted: (account, externalId) => ctx.profileWanted(account, clean(externalId)),
    calls: {
      incoming: (account, call) => calls.incoming(account, clean(call)),
      trackingNumber: (number, businessIds) => calls.trackingNumber(clean(number), businessIds),
      outgoing: (account, call) => calls.outgoing(account, clean(call)),
      deskPhone: (address) => calls.deskPhone(clean(address)),
      status: (report) => calls.status(clean(report)),
      dialEnded: (report) => calls.dialEnded(clean(report)),
      recording: (account, report) => calls.recording(account, clean(report)),
      transcribed: (account, report) => calls.transcribed(account, clean(report)),
    },
  };
}

/** The user, when they belong to one of the businesses (a leg's identity is only trusted that far). */
async function memberOf(app: FastifyInstance, businessIds: string[], userId: string): Promise<string | null> {
  const [member] = await app.db
    .select({ user_id: businessMembers.user_id })
    .from(businessMembers)
    .where(and(eq(businessMembers.user_id, userId), inArray(businessMembers.business_id, businessIds)));
  return member?.user_id ?? null;
}

/**
 * Provider webhooks (public, signature-checked, outside /api/v1) and the signed media links providers fetch
 * attachments from. Every body is kept as the raw bytes: signatures are computed over them.
 */
export async function channelWebhooks(app: FastifyInstance): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    '*',
    { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT },
    (_request, body, done) => done(null, body),
  );
  const ctx = storableContext(webhookContext(app));
  for (const routes of PROVIDER_WEBHOOKS) routes(app, ctx);
  const key = app.config.encryptionKey;

  // ── Signed media links (MMS MediaUrl, WhatsApp/Messenger/RBM links) ────────────────────────────────────

  app.get('/media/:id', async (request, reply) => {
    const { id } = request.params as { id: string };
    const query = request.query as Record<string, string | undefined>;
    if (!isUuid(id)) throw notFound('File');
    const check = verifyMediaUrl(key, id, query.exp, query.sig);
    if (check === 'invalid') throw new AppError('forbidden', 'This link is not valid.');
    if (check === 'expired') throw new AppError('forbidden', 'This link has expired.');
    const [upload] = await app.db.select().from(uploads).where(eq(uploads.id, id));
    return sendUpload(reply, app.config, upload);
  });
}
