import { AppError } from '../../errors.ts';
import { safeEqual } from '../../lib/crypto.ts';
import type { Account, WebhookRoutes } from '../types.ts';
import { badSignature, header, jsonBody, malformed } from '../webhook-http.ts';
import { verifyGoogSignature } from './signature.ts';
import { parseRbmPush, Verification } from './webhook.ts';

/**
 * Google RCS Business Messaging: the partner webhook's verification (any agent's client token) and
 * Pub/Sub-style pushes signed with the agent's client token (X-Goog-Signature).
 */
export const rcsWebhooks: WebhookRoutes = (app, ctx) => {
  app.post('/webhooks/google-rcs', async (request, reply) => {
    const body = jsonBody(request, 'RBM');
    const verification = Verification.safeParse(body);
    if (verification.success && !(body as { message?: unknown }).message) {
      const accounts = await ctx.accounts.of(['google_rcs']);
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
    // Nobody can prove to Google that an agent is theirs, so several businesses may have entered one agent
    // id: the push belongs to the one whose client token signed it (only the agent's partner knows it).
    const signedBy = (candidates: Account<'google_rcs'>[]) =>
      candidates.find((a) => verifyGoogSignature(a.config.client_token, push.decoded, signature));
    let candidates = await ctx.accounts.where('google_rcs', { address: push.event.agent_id });
    let account = signedBy(candidates);
    if (candidates.length && !account) {
      // A client token may have changed since the agent was looked up: read them again before refusing.
      candidates = await ctx.accounts.where('google_rcs', { address: push.event.agent_id }, { fresh: true });
      account = signedBy(candidates);
      if (candidates.length && !account) throw badSignature();
    }
    if (!account) {
      request.log.info({ agent_id: push.event.agent_id }, 'RBM event for an agent not connected; ignored');
      return reply.send({});
    }
    const event = push.event;
    if (event.type === 'message') {
      await ctx.receive(account, {
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
      await ctx.status({
        business_ids: [account.row.business_id],
        provider: 'google_rcs',
        provider_message_id: event.id,
        status: event.status,
      });
    }
    return reply.send({});
  });
};
