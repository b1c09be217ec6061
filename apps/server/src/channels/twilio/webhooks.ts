import type { FastifyReply, FastifyRequest } from 'fastify';
import type { MediaRef } from '../../jobs/definitions/inbound-media.ts';
import type { Account, AccountQuery, WebhookContext, WebhookRoutes } from '../types.ts';
import { badSignature, header, malformed, rawBody } from '../webhook-http.ts';
import { OPTED_OUT_CODE } from './errors.ts';
import { optKeyword, parseTwilioInbound, parseTwilioStatus } from './inbound.ts';
import { param, parseForm, type TwilioParams, verifyTwilioSignature } from './signature.ts';

export const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response></Response>';

/** The parameters Twilio signed, and the ones it sent (GET webhooks carry them in the signed URL). */
export function twilioParams(request: FastifyRequest) {
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

/** The accounts among `accounts` whose Auth Token signed the request. */
export function verifier(ctx: WebhookContext) {
  return (accounts: Account<'twilio'>[], request: FastifyRequest, p: ReturnType<typeof twilioParams>) => {
    const signature = header(request, 'x-twilio-signature') ?? '';
    const url = ctx.signedUrl(request);
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
  };
}

/**
 * The account a webhook's address names (picked among the candidates the query finds), once its Auth Token is
 * shown to have signed the request; undefined when no account owns the address. The token may have changed
 * since the account was looked up, so it is read again before a request is refused (403).
 */
export async function signedAccount(
  ctx: WebhookContext,
  request: FastifyRequest,
  p: ReturnType<typeof twilioParams>,
  query: AccountQuery,
  pick: (candidates: Account<'twilio'>[]) => Account<'twilio'> | undefined,
): Promise<Account<'twilio'> | undefined> {
  const verifiedBy = verifier(ctx);
  let account = pick(await ctx.accounts.where('twilio', query));
  if (account && verifiedBy([account], request, p).length === 0) {
    account = pick(await ctx.accounts.where('twilio', query, { fresh: true }));
    if (account && verifiedBy([account], request, p).length === 0) throw badSignature();
  }
  return account;
}

/**
 * Twilio Messaging: inbound SMS/MMS and status callbacks, each checked against the Auth Token of every
 * account it could belong to (X-Twilio-Signature over the URL as signed and the parameters).
 */
export const twilioWebhooks: WebhookRoutes = (app, ctx) => {
  const verifiedBy = verifier(ctx);

  async function inbound(request: FastifyRequest, reply: FastifyReply) {
    if (!header(request, 'x-twilio-signature')) throw badSignature();
    const p = twilioParams(request);
    const to = param(p.data, 'To');
    const service = param(p.data, 'MessagingServiceSid');
    if (!to && !service) throw malformed('Twilio');
    const query = { address: to, configField: ['messaging_service_sid', service] as [string, string | null] };
    // The number itself wins over a Messaging Service that several locations' numbers may share.
    const pick = (candidates: Account<'twilio'>[]) =>
      candidates.find((a) => a.row.address === to || a.config.phone_number === to) ??
      candidates.find((a) => service && a.config.messaging_service_sid === service);
    const account = await signedAccount(ctx, request, p, query, pick);
    if (!account) {
      request.log.info({ to, service }, 'Twilio message for a number no account owns; ignored');
      return reply.type('text/xml').send(EMPTY_TWIML);
    }
    const message = parseTwilioInbound(p.data);
    if (!message) throw malformed('Twilio');

    const media: MediaRef[] = message.media.map((m) => ({ url: m.url, content_type: m.content_type }));
    const keyword = optKeyword(message.body);
    await ctx.receive(account, {
      provider: 'twilio',
      provider_message_id: message.sid,
      // SMS and MMS from one number share a thread: the pipeline puts it in whichever of the two is open.
      channel: media.length > 0 ? 'mms' : 'sms',
      from: { phone: message.from },
      message: message.body,
      meta: { from: message.from, to: message.to },
      media,
      ...(keyword ? { sms_opt: keyword === 'stop' ? 'out' : 'in' } : {}),
    });
    return reply.type('text/xml').send(EMPTY_TWIML);
  }

  async function statusCallback(request: FastifyRequest, reply: FastifyReply) {
    if (!header(request, 'x-twilio-signature')) throw badSignature();
    const p = twilioParams(request);
    const accountSid = param(p.data, 'AccountSid');
    const from = param(p.data, 'From');
    const service = param(p.data, 'MessagingServiceSid');
    if (!accountSid && !from && !service) throw malformed('Twilio status');
    // The Auth Token belongs to the Twilio account (AccountSid); the sending number or service narrows it.
    const look = async (fresh: boolean) =>
      [
        ...(await ctx.accounts.where('twilio', { configField: ['account_sid', accountSid] }, { fresh })),
        ...(await ctx.accounts.where(
          'twilio',
          { address: from, configField: ['messaging_service_sid', service] },
          { fresh },
        )),
      ].filter((a, i, all) => all.findIndex((b) => b.row.id === a.row.id) === i);
    let candidates = await look(false);
    // Credentials changed since they were looked up: read them again before refusing.
    if (candidates.length && verifiedBy(candidates, request, p).length === 0) candidates = await look(true);
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
      await ctx.status({
        business_ids: [...new Set(verified.map((a) => a.row.business_id))],
        provider: 'twilio',
        provider_message_id: status.sid,
        our_message_id: new URL(ctx.signedUrl(request)).searchParams.get('m'),
        status: status.status,
        error: status.error,
        opted_out: status.error_code === OPTED_OUT_CODE,
      });
    }
    return reply.type('text/xml').send(EMPTY_TWIML);
  }

  app.route({ method: ['GET', 'POST'], url: '/webhooks/twilio/messaging', handler: inbound });
  // `message-status` is the path in Twilio's own examples; both are accepted.
  for (const url of ['/webhooks/twilio/messaging/status', '/webhooks/twilio/message-status']) {
    app.route({ method: ['GET', 'POST'], url, handler: statusCallback });
  }
};
