import { channelAccounts, enquiries, messages } from '@switchboard/db';
import type { Attachment } from '@switchboard/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { JobWithMetadata } from 'pg-boss';
import { graphApi, graphTargetOf } from '../../channels/meta/graph.ts';
import { twilioBasicAuth } from '../../channels/twilio/api.ts';
import type { Account } from '../../channels/types.ts';
import { inboundMedia, type MediaJob, type MediaRef } from '../../jobs/definitions/inbound-media.ts';
import { downloadMedia, mediaName } from '../../lib/provider-http.ts';
import { saveUpload, toAttachment } from '../../lib/storage.ts';
import type { Jobs } from '../../plugins/jobs.ts';
import { toMessageDto } from '../messages/dto.ts';
import { openAccount } from './accounts.ts';

/**
 * Inbound media is fetched after the message is stored and the provider has its answer: a slow or large
 * download never makes a provider time out and send the webhook again. The message says how many are on their
 * way (`meta.media_pending`) until the job attaches them and tells the inbox (`message.updated`).
 */

type Resolved = { url: string; content_type?: string; headers?: Record<string, string> };

/** The provider API origins: media there may be fetched even when they are loopback (tests) or private. */
function trustedOrigins(app: FastifyInstance): string[] {
  const p = app.config.providers;
  return [p.twilioApiBase, p.graphApiBase, p.rbmApiBase].map((u) => new URL(u).origin);
}

/** Where to download one file and with which credentials; credentials go only to the provider's own hosts. */
async function resolveMedia(app: FastifyInstance, account: Account, ref: MediaRef): Promise<Resolved> {
  const { providers } = app.config;
  if (account.row.provider === 'twilio' && ref.url) {
    const u = new URL(ref.url);
    const twilioHosted =
      u.origin === new URL(providers.twilioApiBase).origin ||
      u.hostname === 'api.twilio.com' ||
      u.hostname.endsWith('.twilio.com');
    const auth = twilioBasicAuth(account.config as { account_sid: string; auth_token: string });
    return { url: ref.url, headers: twilioHosted ? { authorization: auth } : undefined };
  }
  if (account.row.provider === 'whatsapp') {
    const graph = graphTargetOf(providers, account.config as { access_token: string });
    const graphOrigin = new URL(graph.base).origin;
    const auth = (url: string) => {
      const u = new URL(url);
      const metaHosted =
        u.origin === graphOrigin || /(^|\.)(fbsbx|facebook|fbcdn|whatsapp)\.(com|net)$/.test(u.hostname);
      return metaHosted ? { authorization: `Bearer ${graph.token}` } : undefined;
    };
    if (!ref.media_id) {
      if (!ref.url) throw new Error('WhatsApp media without an id or a URL');
      return { url: ref.url, headers: auth(ref.url) };
    }
    const info = await graphApi<{ url?: string; mime_type?: string }>(
      graph,
      'GET',
      `/${encodeURIComponent(ref.media_id)}`,
    );
    if (!info.url) throw new Error(`WhatsApp media ${ref.media_id} lookup gave no URL`);
    return { url: info.url, content_type: info.mime_type, headers: auth(info.url) };
  }
  // Messenger, Instagram and RCS media URLs are signed or public: no credentials.
  if (!ref.url) throw new Error('media without a URL');
  return { url: ref.url };
}

/** Downloads each file into uploads; one that cannot be fetched is counted, never fatal. */
async function fetchAttachments(
  app: FastifyInstance,
  account: Account,
  media: MediaRef[],
): Promise<{ attachments: Attachment[]; failed: number }> {
  const attachments: Attachment[] = [];
  let failed = 0;
  for (const [i, ref] of media.entries()) {
    try {
      const target = await resolveMedia(app, account, ref);
      const file = await downloadMedia(target.url, {
        maxBytes: app.config.uploadMaxBytes,
        timeoutMs: app.config.providers.timeoutMs,
        headers: target.headers,
        trustedOrigins: trustedOrigins(app),
      });
      const contentType =
        ref.content_type ?? target.content_type ?? file.content_type ?? 'application/octet-stream';
      const upload = await saveUpload(app.db, app.config, {
        business_id: account.row.business_id,
        user_id: null,
        name: ref.name ?? mediaName(contentType, i),
        content_type: contentType,
        bytes: file.bytes,
      });
      attachments.push(toAttachment(upload));
    } catch (error) {
      failed++;
      app.log.warn({ err: error, account_id: account.row.id }, 'inbound media could not be downloaded');
    }
  }
  return { attachments, failed };
}

const failureNote = (failed: number) =>
  `(${failed === 1 ? 'An attachment' : `${failed} attachments`} could not be downloaded from the provider.)`;

/**
 * Attaches what was downloaded to the message, notes what was not, and tells the inbox. Only a message still
 * waiting for its media changes, so a repeated job does nothing.
 */
async function finishMessage(
  app: FastifyInstance,
  messageId: string,
  attachments: Attachment[],
  failed: number,
): Promise<void> {
  const [row] = await app.db
    .update(messages)
    .set({
      attachments: sql`${messages.attachments} || ${JSON.stringify(attachments)}::jsonb`,
      message: failed
        ? sql`case when ${messages.message} = '' then ${failureNote(failed)} else ${messages.message} || ${`\n${failureNote(failed)}`} end`
        : messages.message,
      meta: sql`(${messages.meta} - 'media_pending') || ${JSON.stringify(failed ? { media_failed: failed } : {})}::jsonb`,
    })
    .where(and(eq(messages.id, messageId), sql`${messages.meta} ? 'media_pending'`))
    .returning();
  if (!row) return;
  const [enquiry] = await app.db
    .select({ location_id: enquiries.location_id })
    .from(enquiries)
    .where(eq(enquiries.id, row.enquiry_id));
  if (!enquiry) return;
  app.events.emit('message.updated', {
    business_id: row.business_id,
    location_id: enquiry.location_id,
    message: toMessageDto(row, null),
  });
}

export async function attachMedia(app: FastifyInstance, job: JobWithMetadata<MediaJob>): Promise<void> {
  const { message_id, account_id, media } = job.data;
  try {
    const [row] = await app.db.select().from(channelAccounts).where(eq(channelAccounts.id, account_id));
    // Disconnected since: the credentials to fetch with are gone.
    if (!row) return finishMessage(app, message_id, [], media.length);
    const account = openAccount(app.config.encryptionKey, row);
    const { attachments, failed } = await fetchAttachments(app, account, media);
    await finishMessage(app, message_id, attachments, failed);
  } catch (error) {
    // The last try: the message stops waiting, and says its media never came.
    if (job.retryCount >= job.retryLimit) await finishMessage(app, message_id, [], media.length);
    throw error;
  }
}

/**
 * Queues the message's download, unless one is already waiting or running for it. Downloads are grouped by
 * business: each node runs a few at once but at most MEDIA_PER_BUSINESS of one business, so one business's
 * slow or unresponsive media never holds up another's.
 */
export async function queueMediaDownload(jobs: Jobs, job: MediaJob, businessId: string): Promise<void> {
  const existing = await jobs.findJobs(inboundMedia, job.message_id);
  if (existing.some((j) => ['created', 'retry', 'active'].includes(j.state))) return;
  await jobs.send(inboundMedia, job, {
    id: job.message_id,
    singletonKey: job.message_id,
    group: { id: businessId },
  });
}

/** Media downloads one node runs at once, and at most how many of them for one business. */
export const MEDIA_CONCURRENCY = 4;
export const MEDIA_PER_BUSINESS = 2;
