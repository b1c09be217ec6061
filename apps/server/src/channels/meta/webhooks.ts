import { AppError } from '../../errors.ts';
import type { MediaRef } from '../../jobs/definitions/inbound-media.ts';
import { safeEqual } from '../../lib/crypto.ts';
import type { WhatsAppConfig } from '../catalogue.ts';
import type { Account, WebhookContext, WebhookRoutes } from '../types.ts';
import { badSignature, header, jsonBody, malformed, rawBody } from '../webhook-http.ts';
import { isProfileProvider } from './profile.ts';
import { verifyHubSignature } from './signature.ts';
import { CHANNEL_OF, type MetaEvent, parseMetaWebhook } from './webhook.ts';

/** One event of a delivery, handed to the app for the account it concerns. */
async function handle(
  ctx: WebhookContext,
  account: Account,
  event: MetaEvent,
  log: { debug: (o: object, m: string) => void },
) {
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
      await ctx.receive(account, {
        provider: event.provider,
        provider_message_id: event.id,
        channel,
        from: event.from,
        message: event.text,
        timestamp: event.timestamp,
        meta: event.meta,
        media,
      });
      // Messenger and Instagram name the sender only by id: their name is looked up after this answer. A repeat
      // asks again (the look-up names only a customer still unnamed): the first delivery may have been stored
      // by a server that stopped before asking, and Meta repeats what was not answered.
      if (isProfileProvider(event.provider) && event.from.external_id && !event.from.name) {
        await ctx.profileWanted(account, event.from.external_id);
      }
      return;
    }
    case 'status':
      await ctx.status({
        business_ids: [account.row.business_id],
        provider: event.provider,
        provider_message_id: event.id,
        our_message_id: event.callback_data,
        status: event.status,
        error: event.error,
      });
      return;
    case 'watermark':
      await ctx.watermark({
        business_id: account.row.business_id,
        provider: event.provider,
        channel,
        external_id: event.external_id,
        watermark: event.watermark,
        status: event.status,
      });
      return;
    case 'unsent':
      await ctx.unsent(account, { provider: event.provider, provider_message_id: event.id });
      return;
    case 'ignored':
      log.debug({ provider: event.provider, reason: event.reason }, 'Meta webhook event ignored');
      return;
    default: {
      const never: never = event;
      return never;
    }
  }
}

/**
 * Meta's one webhook for WhatsApp Cloud API, Messenger and Instagram: the verification handshake (any
 * connected account's verify token), and deliveries signed with the app secret (X-Hub-Signature-256).
 */
export const metaWebhooks: WebhookRoutes = (app, ctx) => {
  app.get('/webhooks/meta', async (request, reply) => {
    const query = request.query as Record<string, string | undefined>;
    const mode = query['hub.mode'];
    const token = query['hub.verify_token'];
    const challenge = query['hub.challenge'];
    if (!mode || !token || challenge === undefined) throw malformed('Meta verification');
    const accounts = await ctx.accounts.of(['whatsapp', 'messenger', 'instagram']);
    const match = accounts.some((a) => safeEqual((a.config as { verify_token: string }).verify_token, token));
    if (mode !== 'subscribe' || !match) {
      throw new AppError('forbidden', 'The verify token does not match any connected account.');
    }
    return reply.type('text/plain').send(challenge);
  });

  app.post('/webhooks/meta', async (request, reply) => {
    const signature = header(request, 'x-hub-signature-256');
    if (!signature) throw badSignature();
    const raw = rawBody(request);
    const parsed = parseMetaWebhook(jsonBody(request, 'Meta'));
    if (!parsed) throw malformed('Meta');

    const accounts = new Map<string, Account | null>();
    const look = async (fresh: boolean) => {
      accounts.clear();
      for (const e of parsed.events) {
        const id = `${e.provider}:${e.address}`;
        if (accounts.has(id) || !e.address) continue;
        const [found] = await ctx.accounts.where(e.provider, { address: e.address }, { fresh });
        accounts.set(id, found ?? null);
      }
    };
    // All of a delivery is signed once, by the app: every account it touches must verify it.
    const verified = () =>
      [...accounts.values()].every(
        (account) =>
          !account ||
          verifyHubSignature(
            (account.config as Pick<WhatsAppConfig, 'app_secret'>).app_secret,
            raw,
            signature,
          ),
      );
    await look(false);
    if (!verified()) {
      // An app secret may have changed since the accounts were looked up: read them again before refusing.
      await look(true);
      if (!verified()) throw badSignature();
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
      await handle(ctx, account, event, request.log);
    }
    return reply.type('text/plain').send('EVENT_RECEIVED');
  });
};
