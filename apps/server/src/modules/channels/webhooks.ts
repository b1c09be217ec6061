import { customers, enquiries, uploads } from '@switchboard/db';
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { verifyGoogSignature } from '../../channels/google-rcs/signature.ts';
import { parseRbmPush, Verification } from '../../channels/google-rcs/webhook.ts';
import { isProfileProvider } from '../../channels/meta/profile.ts';
import { verifyHubSignature } from '../../channels/meta/signature.ts';
import { CHANNEL_OF, type MetaEvent, parseMetaWebhook } from '../../channels/meta/webhook.ts';
import { OPTED_OUT_CODE } from '../../channels/twilio/errors.ts';
import { optKeyword, parseTwilioInbound, parseTwilioStatus } from '../../channels/twilio/inbound.ts';
import {
  param,
  parseForm,
  type TwilioParams,
  verifyTwilioSignature,
} from '../../channels/twilio/signature.ts';
import { AppError, notFound } from '../../errors.ts';
import type { MediaRef } from '../../jobs/definitions/inbound-media.ts';
import { safeEqual } from '../../lib/crypto.ts';
import { isUuid } from '../../lib/fields.ts';
import { sendFile } from '../../lib/file-response.ts';
import { readUpload } from '../../lib/storage.ts';
import { queueProfileLookup } from '../customers/naming.ts';
import { type Account, accountsOf, accountsWhere, type Warn } from './accounts.ts';
import {
  applyProviderStatus,
  applyWatermark,
  customerOfMessage,
  setSmsOptOut,
  storeInbound,
} from './ingest.ts';
import { verifyMediaUrl } from './media-url.ts';
import type { WhatsAppConfig } from './providers.ts';

/** Meta batches up to 1000 updates in one delivery. */
const WEBHOOK_BODY_LIMIT = 5 * 1024 * 1024;
const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response></Response>';

const badSignature = () => new AppError('forbidden', 'The webhook signature is missing or does not match.');
const malformed = (what: string) => new AppError('bad_request', `Malformed ${what} webhook.`);

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function rawBody(request: FastifyRequest): Buffer {
  return Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
}

function jsonBody(request: FastifyRequest, what: string): unknown {
  try {
    return JSON.parse(rawBody(request).toString('utf8'));
  } catch {
    throw malformed(what);
  }
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

  /** The URL the provider requested, as it signed it: PUBLIC_URL + path + query. */
  const signedUrl = (request: FastifyRequest) => `${app.config.publicUrl}${request.url}`;
  const key = app.config.encryptionKey;
  const warn: Warn = (detail, message) => app.log.warn(detail, message);

  // ── Twilio ─────────────────────────────────────────────────────────────────────────────────────────────

  /** The parameters Twilio signed, and the ones it sent (GET webhooks carry them in the signed URL). */
  function twilioParams(request: FastifyRequest) {
    const raw = rawBody(request).toString('utf8');
    const json = (header(request, 'content-type') ?? '').includes('application/json');
    if (request.method === 'GET') {
      const data = parseForm(request.url.split('?')[1] ?? '');
      return { signed: {} as TwilioParams, data, raw, json: false };
    }
    if (json) {
      const data: TwilioParams = {};
      try {
        const parsed = JSON.parse(raw) as Record<string, unknown>;
        for (const [k, v] of Object.entries(parsed)) if (typeof v === 'string') data[k] = v;
      } catch {
        throw malformed('Twilio');
      }
      return { signed: {} as TwilioParams, data, raw, json: true };
    }
    const data = parseForm(raw);
    return { signed: data, data, raw, json: false };
  }

  function verifiedBy(
    accounts: Account<'twilio'>[],
    request: FastifyRequest,
    p: ReturnType<typeof twilioParams>,
  ) {
    const signature = header(request, 'x-twilio-signature') ?? '';
    const url = signedUrl(request);
    return accounts.filter((a) =>
      verifyTwilioSignature({
        authToken: a.config.auth_token,
        signature,
        url,
        params: p.signed,
        rawBody: p.raw,
        json: p.json,
      }),
    );
  }

  /** SMS and MMS from one number share a thread: a message joins whichever of the two is open. */
  async function twilioChannel(account: Account, phone: string, hasMedia: boolean): Promise<'sms' | 'mms'> {
    const [open] = await app.db
      .select({ channel: enquiries.channel })
      .from(enquiries)
      .innerJoin(customers, eq(customers.id, enquiries.customer_id))
      .where(
        and(
          eq(enquiries.business_id, account.row.business_id),
          eq(enquiries.location_id, account.row.location_id),
          eq(enquiries.status, 'open'),
          inArray(enquiries.channel, ['sms', 'mms']),
          eq(customers.phone, phone),
        ),
      )
      .orderBy(desc(enquiries.last_message_at))
      .limit(1);
    if (open) return open.channel as 'sms' | 'mms';
    return hasMedia ? 'mms' : 'sms';
  }

  async function twilioInbound(request: FastifyRequest, reply: FastifyReply) {
    if (!header(request, 'x-twilio-signature')) throw badSignature();
    const p = twilioParams(request);
    const to = param(p.data, 'To');
    const service = param(p.data, 'MessagingServiceSid');
    if (!to && !service) throw malformed('Twilio');
    const candidates = await accountsWhere(
      app.db,
      key,
      'twilio',
      {
        address: to,
        configField: ['messaging_service_sid', service],
      },
      warn,
    );
    // The number itself wins over a Messaging Service that several locations' numbers may share.
    const account =
      candidates.find((a) => a.row.address === to || a.config.phone_number === to) ??
      candidates.find((a) => service && a.config.messaging_service_sid === service);
    if (!account) {
      request.log.info({ to, service }, 'Twilio message for a number no account owns; ignored');
      return reply.type('text/xml').send(EMPTY_TWIML);
    }
    if (verifiedBy([account], request, p).length === 0) throw badSignature();
    const message = parseTwilioInbound(p.data);
    if (!message) throw malformed('Twilio');

    const channel = await twilioChannel(account, message.from, message.media.length > 0);
    const media: MediaRef[] = message.media.map((m) => ({ url: m.url, content_type: m.content_type }));
    const keyword = optKeyword(message.body);
    await storeInbound(app, account, {
      provider: 'twilio',
      provider_message_id: message.sid,
      channel,
      from: { phone: message.from },
      message: message.body,
      meta: { from: message.from, to: message.to },
      media,
      ...(keyword ? { sms_opt: keyword === 'stop' ? 'out' : 'in' } : {}),
    });
    return reply.type('text/xml').send(EMPTY_TWIML);
  }

  async function twilioStatusCallback(request: FastifyRequest, reply: FastifyReply) {
    if (!header(request, 'x-twilio-signature')) throw badSignature();
    const p = twilioParams(request);
    const accountSid = param(p.data, 'AccountSid');
    const from = param(p.data, 'From');
    const service = param(p.data, 'MessagingServiceSid');
    if (!accountSid && !from && !service) throw malformed('Twilio status');
    // The Auth Token belongs to the Twilio account (AccountSid); the sending number or service narrows it.
    const candidates = [
      ...(await accountsWhere(app.db, key, 'twilio', { configField: ['account_sid', accountSid] }, warn)),
      ...(await accountsWhere(
        app.db,
        key,
        'twilio',
        {
          address: from,
          configField: ['messaging_service_sid', service],
        },
        warn,
      )),
    ].filter((a, i, all) => all.findIndex((b) => b.row.id === a.row.id) === i);
    if (candidates.length === 0) {
      request.log.info(
        { account_sid: accountSid, from },
        'Twilio status for an account not connected; ignored',
      );
      return reply.type('text/xml').send(EMPTY_TWIML);
    }
    const verified = verifiedBy(candidates, request, p);
    if (verified.length === 0) throw badSignature();
    const status = parseTwilioStatus(p.data);
    if (!status) {
      // A number's voice StatusCallback can point here too: a call's status is not ours to track.
      if (param(p.data, 'CallSid')) return reply.type('text/xml').send(EMPTY_TWIML);
      throw malformed('Twilio status');
    }
    if (status.status) {
      const ourId = new URL(signedUrl(request)).searchParams.get('m');
      await applyProviderStatus(app, {
        businessIds: [...new Set(verified.map((a) => a.row.business_id))],
        provider: 'twilio',
        provider_message_id: status.sid,
        our_message_id: ourId,
        status: status.status,
        error: status.error,
      });
      if (status.error_code === OPTED_OUT_CODE) {
        const customerId = await customerOfMessage(app, 'twilio', status.sid);
        if (customerId) await setSmsOptOut(app, customerId, true);
      }
    }
    return reply.type('text/xml').send(EMPTY_TWIML);
  }

  app.route({ method: ['GET', 'POST'], url: '/webhooks/twilio/messaging', handler: twilioInbound });
  // `message-status` is the path in Twilio's own examples; both are accepted.
  for (const url of ['/webhooks/twilio/messaging/status', '/webhooks/twilio/message-status']) {
    app.route({ method: ['GET', 'POST'], url, handler: twilioStatusCallback });
  }

  // ── Meta: WhatsApp Cloud API, Messenger, Instagram ──────────────────────────────────────────────────────

  app.get('/webhooks/meta', async (request, reply) => {
    const query = request.query as Record<string, string | undefined>;
    const mode = query['hub.mode'];
    const token = query['hub.verify_token'];
    const challenge = query['hub.challenge'];
    if (!mode || !token || challenge === undefined) throw malformed('Meta verification');
    const accounts = await accountsOf(app.db, key, ['whatsapp', 'messenger', 'instagram'], warn);
    const match = accounts.some((a) => safeEqual((a.config as { verify_token: string }).verify_token, token));
    if (mode !== 'subscribe' || !match) {
      throw new AppError('forbidden', 'The verify token does not match any connected account.');
    }
    return reply.type('text/plain').send(challenge);
  });

  async function metaEvent(account: Account, event: MetaEvent) {
    const channel = CHANNEL_OF[event.provider];
    switch (event.type) {
      case 'message': {
        const media = event.media.map(
          (m): MediaRef => ({
            url: m.url,
            media_id: m.media_id,
            content_type: m.content_type,
            name: m.filename,
          }),
        );
        const stored = await storeInbound(app, account, {
          provider: event.provider,
          provider_message_id: event.id,
          channel,
          from: event.from,
          message: event.text,
          timestamp: event.timestamp,
          meta: event.meta,
          media,
        });
        // Messenger and Instagram name the sender only by id: their name is looked up after this answer.
        if (
          stored === 'stored' &&
          isProfileProvider(event.provider) &&
          event.from.external_id &&
          !event.from.name
        ) {
          await queueProfileLookup(app, { account_id: account.row.id, external_id: event.from.external_id });
        }
        return;
      }
      case 'status':
        await applyProviderStatus(app, {
          businessIds: [account.row.business_id],
          provider: event.provider,
          provider_message_id: event.id,
          our_message_id: event.callback_data,
          status: event.status,
          error: event.error,
        });
        return;
      case 'watermark':
        await applyWatermark(app, {
          businessId: account.row.business_id,
          provider: event.provider,
          channel,
          external_id: event.external_id,
          watermark: event.watermark,
          status: event.status,
        });
        return;
      case 'ignored':
        app.log.debug({ provider: event.provider, reason: event.reason }, 'Meta webhook event ignored');
        return;
      default: {
        const never: never = event;
        return never;
      }
    }
  }

  app.post('/webhooks/meta', async (request, reply) => {
    const signature = header(request, 'x-hub-signature-256');
    if (!signature) throw badSignature();
    const raw = rawBody(request);
    const parsed = parseMetaWebhook(jsonBody(request, 'Meta'));
    if (!parsed) throw malformed('Meta');

    const accounts = new Map<string, Account | null>();
    for (const e of parsed.events) {
      const id = `${e.provider}:${e.address}`;
      if (accounts.has(id) || !e.address) continue;
      const [found] = await accountsWhere(app.db, key, e.provider, { address: e.address }, warn);
      accounts.set(id, found ?? null);
    }
    // All of a delivery is signed once, by the app: every account it touches must verify it.
    for (const account of accounts.values()) {
      if (!account) continue;
      const secret = (account.config as Pick<WhatsAppConfig, 'app_secret'>).app_secret;
      if (!verifyHubSignature(secret, raw, signature)) throw badSignature();
    }
    for (const event of parsed.events) {
      const account = accounts.get(`${event.provider}:${event.address}`);
      if (!account) {
        request.log.info(
          { provider: event.provider, address: event.address },
          'Meta event for an account not connected; ignored',
        );
        continue;
      }
      await metaEvent(account, event);
    }
    return reply.type('text/plain').send('EVENT_RECEIVED');
  });

  // ── Google RCS Business Messaging ───────────────────────────────────────────────────────────────────────

  app.post('/webhooks/google-rcs', async (request, reply) => {
    const body = jsonBody(request, 'RBM');
    const verification = Verification.safeParse(body);
    if (verification.success && !(body as { message?: unknown }).message) {
      const accounts = await accountsOf(app.db, key, ['google_rcs'], warn);
      const match = accounts.some((a) =>
        safeEqual((a.config as { client_token: string }).client_token, verification.data.clientToken),
      );
      if (!match) throw new AppError('forbidden', 'The client token does not match any connected RCS agent.');
      return reply.type('text/plain').send(verification.data.secret);
    }
    const signature = header(request, 'x-goog-signature');
    if (!signature) throw badSignature();
    const push = parseRbmPush(body);
    if (!push) throw malformed('RBM');
    const [account] = await accountsWhere(app.db, key, 'google_rcs', { address: push.event.agent_id }, warn);
    if (!account) {
      request.log.info({ agent_id: push.event.agent_id }, 'RBM event for an agent not connected; ignored');
      return reply.send({});
    }
    if (!verifyGoogSignature(account.config.client_token, push.decoded, signature)) throw badSignature();
    const event = push.event;
    if (event.type === 'message') {
      await storeInbound(app, account, {
        provider: 'google_rcs',
        provider_message_id: event.id,
        channel: 'google_rcs',
        from: { phone: event.phone },
        message: event.text,
        timestamp: event.timestamp,
        meta: event.meta,
        media: event.file
          ? [{ url: event.file.url, content_type: event.file.content_type, name: event.file.name }]
          : [],
      });
    } else if (event.type === 'status') {
      await applyProviderStatus(app, {
        businessIds: [account.row.business_id],
        provider: 'google_rcs',
        provider_message_id: event.id,
        status: event.status,
      });
    }
    return reply.send({});
  });

  // ── Signed media links (MMS MediaUrl, WhatsApp/Messenger/RBM links) ────────────────────────────────────

  app.get('/media/:id', async (request, reply) => {
    const { id } = request.params as { id: string };
    const query = request.query as Record<string, string | undefined>;
    if (!isUuid(id)) throw notFound('File');
    const check = verifyMediaUrl(key, id, query.exp, query.sig);
    if (check === 'invalid') throw new AppError('forbidden', 'This link is not valid.');
    if (check === 'expired') throw new AppError('forbidden', 'This link has expired.');
    const [upload] = await app.db.select().from(uploads).where(eq(uploads.id, id));
    const bytes = upload && (await readUpload(app.config, upload));
    if (!upload || !bytes) throw notFound('File');
    return sendFile(reply, { ...upload, bytes });
  });
}
