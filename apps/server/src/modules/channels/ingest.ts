import { customers, messages, uploads } from '@switchboard/db';
import type { Attachment, MessageStatus } from '@switchboard/shared';
import { and, eq, inArray, lte, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { InboundMessage } from '../../channels/types.ts';
import { ingestInbound } from '../messages/inbound.ts';
import { applyMessageStatus } from '../messages/outbound.ts';
import { uploadContentUrl } from '../messages/routes.ts';
import { deleteUploadFile, saveUpload } from '../uploads/storage.ts';
import type { Account } from './accounts.ts';
import { downloadMedia, mediaName } from './http.ts';

/** Media to fetch into uploads; `resolve` finds the download URL first (WhatsApp media ids). */
export type MediaSource = {
  url?: string;
  content_type?: string;
  name?: string;
  headers?: Record<string, string>;
  resolve?: () => Promise<{ url: string; content_type?: string; headers?: Record<string, string> }>;
};

export type StoreResult = 'stored' | 'duplicate';

async function alreadyStored(app: FastifyInstance, provider: string, id: string): Promise<boolean> {
  const [row] = await app.db
    .select({ id: messages.id })
    .from(messages)
    .where(and(eq(messages.provider, provider), eq(messages.provider_message_id, id)))
    .limit(1);
  return Boolean(row);
}

/** The provider API origins: media there may be fetched even when they are loopback (tests) or private. */
export function trustedOrigins(app: FastifyInstance): string[] {
  const p = app.config.providers;
  return [p.twilioApiBase, p.graphApiBase, p.rbmApiBase].map((u) => new URL(u).origin);
}

async function fetchAttachments(
  app: FastifyInstance,
  businessId: string,
  media: MediaSource[],
): Promise<{ attachments: Attachment[]; failed: number }> {
  const attachments: Attachment[] = [];
  let failed = 0;
  for (const [i, m] of media.entries()) {
    try {
      const target = m.resolve
        ? await m.resolve()
        : { url: m.url!, content_type: m.content_type, headers: m.headers };
      const file = await downloadMedia(target.url, {
        maxBytes: app.config.uploadMaxBytes,
        timeoutMs: app.config.providers.timeoutMs,
        headers: target.headers,
        trustedOrigins: trustedOrigins(app),
      });
      const contentType =
        m.content_type ?? target.content_type ?? file.content_type ?? 'application/octet-stream';
      const upload = await saveUpload(app.db, app.config, {
        business_id: businessId,
        user_id: null,
        name: m.name ?? mediaName(contentType, i),
        content_type: contentType,
        bytes: file.bytes,
      });
      attachments.push({
        id: upload.id,
        name: upload.name,
        content_type: upload.content_type,
        size: upload.size,
        url: uploadContentUrl(upload),
      });
    } catch (error) {
      failed++;
      app.log.warn({ err: error, business_id: businessId }, 'inbound media could not be downloaded');
    }
  }
  return { attachments, failed };
}

/**
 * Stores one inbound provider message through the one inbound pipeline, after fetching its media into
 * uploads. A repeat of a stored provider id changes nothing. Media that cannot be fetched never loses the
 * message: it is stored with a note saying so.
 */
export async function storeInbound(
  app: FastifyInstance,
  account: Account,
  inbound: Omit<InboundMessage, 'location_id' | 'attachments'>,
  media: MediaSource[] = [],
): Promise<StoreResult> {
  if (await alreadyStored(app, inbound.provider, inbound.provider_message_id)) return 'duplicate';
  const { attachments, failed } = await fetchAttachments(app, account.row.business_id, media);
  const note = failed
    ? `(${failed === 1 ? 'An attachment' : `${failed} attachments`} could not be downloaded from the provider.)`
    : '';
  const result = await ingestInbound(app, {
    ...inbound,
    message: [inbound.message, note].filter(Boolean).join('\n'),
    meta: { ...(inbound.meta ?? {}), ...(failed ? { media_failed: failed } : {}) },
    location_id: account.row.location_id,
    attachments,
  });
  if (result.duplicate && attachments.length) {
    // A concurrent delivery of the same message won: drop this copy's files.
    const rows = await app.db
      .delete(uploads)
      .where(
        inArray(
          uploads.id,
          attachments.map((a) => a.id),
        ),
      )
      .returning();
    for (const row of rows) await deleteUploadFile(app.config, row);
  }
  return result.duplicate ? 'duplicate' : 'stored';
}

/** The customer who sent a stored inbound message. */
export async function customerOfMessage(app: FastifyInstance, provider: string, providerMessageId: string) {
  const [row] = await app.db
    .select({ id: messages.customer_id })
    .from(messages)
    .where(and(eq(messages.provider, provider), eq(messages.provider_message_id, providerMessageId)));
  return row?.id;
}

export async function setSmsOptOut(app: FastifyInstance, customerId: string, optedOut: boolean) {
  await app.db.update(customers).set({ sms_opted_out: optedOut }).where(eq(customers.id, customerId));
}

/**
 * A provider's status report for one of our messages, limited to the businesses whose credentials signed the
 * report. Matched by the provider's id, or, when the report beats the send job's own update, by our message
 * id that the provider echoes back (Twilio's StatusCallback query, WhatsApp's biz_opaque_callback_data).
 */
export async function applyProviderStatus(
  app: FastifyInstance,
  input: {
    businessIds: string[];
    provider: string;
    provider_message_id: string;
    our_message_id?: string | null;
    status: MessageStatus;
    error?: string | null;
  },
): Promise<boolean> {
  const ctx = { db: app.db, events: app.events };
  const scope = inArray(messages.business_id, input.businessIds);
  const [byProviderId] = await app.db
    .select({ id: messages.id })
    .from(messages)
    .where(
      and(
        eq(messages.provider, input.provider),
        eq(messages.provider_message_id, input.provider_message_id),
        scope,
      ),
    );
  const extra =
    input.status === 'failed' ? { error: input.error ?? 'The provider could not deliver the message.' } : {};
  if (byProviderId) return applyMessageStatus(ctx, { id: byProviderId.id }, input.status, extra);
  const ourId = input.our_message_id;
  if (!ourId || !/^[0-9a-f-]{36}$/i.test(ourId)) return false;
  const [byOurId] = await app.db
    .select({ id: messages.id })
    .from(messages)
    .where(and(eq(messages.id, ourId), eq(messages.direction, 'out'), scope));
  if (!byOurId) return false;
  return applyMessageStatus(ctx, { id: byOurId.id }, input.status, {
    ...extra,
    provider: input.provider,
    provider_message_id: input.provider_message_id,
  });
}

/** Messenger reports "delivered/read up to this time" for a conversation: every earlier message moves. */
export async function applyWatermark(
  app: FastifyInstance,
  input: {
    businessId: string;
    provider: string;
    channel: string;
    external_id: string;
    watermark: Date;
    status: MessageStatus;
  },
): Promise<number> {
  const rows = await app.db
    .select({ id: messages.id })
    .from(messages)
    .innerJoin(customers, eq(customers.id, messages.customer_id))
    .where(
      and(
        eq(messages.business_id, input.businessId),
        eq(messages.provider, input.provider),
        eq(messages.direction, 'out'),
        lte(messages.created_at, input.watermark),
        sql`${customers.external_ids} ->> ${input.channel} = ${input.external_id}`,
        inArray(messages.status, ['sent', 'delivered']),
      ),
    );
  let moved = 0;
  for (const { id } of rows) {
    if (await applyMessageStatus({ db: app.db, events: app.events }, { id }, input.status)) moved++;
  }
  return moved;
}
