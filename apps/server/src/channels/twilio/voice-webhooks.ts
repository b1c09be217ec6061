import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Account, WebhookRoutes } from '../types.ts';
import { badSignature, header, malformed } from '../webhook-http.ts';
import { param } from './signature.ts';
import {
  dialNumberTwiml,
  parseVoiceIdentity,
  refuseTwiml,
  ringTwiml,
  VOICE_PATHS,
  voicemailTwiml,
} from './voice.ts';
import { EMPTY_TWIML, signedAccount, twilioParams, verifier } from './webhooks.ts';

const xml = (reply: FastifyReply, body: string) => reply.type('text/xml').send(body);

/**
 * Twilio Voice: a customer rings a location's number (every available browser rings, else voicemail), and
 * the status, `<Dial>` and recording callbacks that follow. Each is checked like messaging: the signature
 * with the Auth Token of the account that owns the number (or the AccountSid); 403 unsigned, nothing stored.
 */
export const twilioVoiceWebhooks: WebhookRoutes = (app, ctx) => {
  const verifiedBy = verifier(ctx);
  const publicUrl = app.config.publicUrl;
  const twilioTranscribes = app.config.transcription.provider === 'twilio';

  /** The accounts that signed this request, looked up by `AccountSid` (read again once if none verifies). */
  async function signedByAccount(request: FastifyRequest) {
    if (!header(request, 'x-twilio-signature')) throw badSignature();
    const p = twilioParams(request);
    const accountSid = param(p.data, 'AccountSid');
    if (!accountSid) throw malformed('Twilio Voice');
    const look = (fresh: boolean) =>
      ctx.accounts.where('twilio', { configField: ['account_sid', accountSid] }, { fresh });
    let candidates = await look(false);
    if (candidates.length && verifiedBy(candidates, request, p).length === 0) candidates = await look(true);
    if (candidates.length === 0) return { p, accounts: [] as Account<'twilio'>[] };
    const accounts = verifiedBy(candidates, request, p);
    if (accounts.length === 0) throw badSignature();
    return { p, accounts };
  }

  async function incoming(request: FastifyRequest, reply: FastifyReply) {
    if (!header(request, 'x-twilio-signature')) throw badSignature();
    const p = twilioParams(request);
    const to = param(p.data, 'To');
    const from = param(p.data, 'From');
    const sid = param(p.data, 'CallSid');
    if (!to || !from || !sid) throw malformed('Twilio Voice');
    let account = await signedAccount(ctx, request, p, { address: to }, (all) =>
      all.find((a) => a.row.address === to || a.config.phone_number === to),
    );
    // A campaign's tracking number (another number on the same Twilio account) rings its location.
    const accountSid = param(p.data, 'AccountSid');
    if (!account && accountSid) {
      const query = { configField: ['account_sid', accountSid] as [string, string] };
      const owners = await ctx.accounts.where('twilio', query);
      const tracked = await ctx.calls.trackingNumber(to, [...new Set(owners.map((a) => a.row.business_id))]);
      if (tracked)
        account = await signedAccount(ctx, request, p, query, (all) =>
          all.find((a) => a.row.location_id === tracked.location_id),
        );
    }
    if (!account) {
      request.log.info({ to }, 'Twilio call to a number no account owns; refused');
      return xml(reply, refuseTwiml('Sorry, this number is not in service.'));
    }
    const plan = await ctx.calls.incoming(account, { sid, from, to });
    if (plan.open && plan.clients.length + plan.sip.length > 0)
      return xml(reply, ringTwiml({ publicUrl, clients: plan.clients, sip: plan.sip }));
    return xml(reply, voicemailTwiml({ publicUrl, greeting: plan.greeting, transcribe: twilioTranscribes }));
  }

  /** The TwiML App's Voice URL: a signed-in browser calls a number (`To`), maybe from a conversation. */
  async function outgoing(request: FastifyRequest, reply: FastifyReply) {
    const { p, accounts } = await signedByAccount(request);
    const sid = param(p.data, 'CallSid');
    if (!sid) throw malformed('Twilio Voice');
    // A browser (`client:<identity>`) or a desk phone (`sip:<login>@<domain>`).
    const from = param(p.data, 'From');
    const who =
      parseVoiceIdentity(from) ?? (from?.startsWith('sip:') ? await ctx.calls.deskPhone(from) : null);
    const account = who && accounts.find((a) => a.row.location_id === who.location_id);
    if (!who || !account)
      return xml(reply, refuseTwiml('Sorry, this phone cannot place calls for the business.'));
    const placed = await ctx.calls.outgoing(account, {
      sid,
      user_id: who.user_id,
      // A desk phone dials `sip:<number>@<domain>`.
      to: (param(p.data, 'To') ?? '').replace(/^sip:([^@]+)@.*$/i, '$1'),
      ...(param(p.data, 'enquiryId') ? { enquiry_id: param(p.data, 'enquiryId') } : {}),
    });
    if ('refuse' in placed) return xml(reply, refuseTwiml(placed.refuse));
    return xml(reply, dialNumberTwiml({ publicUrl, callerId: placed.caller_id, number: placed.number }));
  }

  async function status(request: FastifyRequest, reply: FastifyReply) {
    const { p, accounts } = await signedByAccount(request);
    const sid = param(p.data, 'CallSid');
    const callStatus = param(p.data, 'CallStatus');
    if (!sid || !callStatus) throw malformed('Twilio call status');
    if (accounts.length) {
      const duration = Number(param(p.data, 'CallDuration'));
      const to = param(p.data, 'To') ?? '';
      await ctx.calls.status({
        business_ids: [...new Set(accounts.map((a) => a.row.business_id))],
        provider: 'twilio',
        sid,
        parent_sid: param(p.data, 'ParentCallSid'),
        status: callStatus,
        ...(Number.isFinite(duration) && param(p.data, 'CallDuration') !== undefined ? { duration } : {}),
        ...(to.startsWith('client:') || to.startsWith('sip:') ? { answered_by_identity: to } : {}),
      });
    }
    return xml(reply, EMPTY_TWIML);
  }

  async function dialAction(request: FastifyRequest, reply: FastifyReply) {
    const { p, accounts } = await signedByAccount(request);
    const sid = param(p.data, 'CallSid');
    if (!sid) throw malformed('Twilio dial action');
    if (!accounts.length) return xml(reply, EMPTY_TWIML);
    const voicemail = await ctx.calls.dialEnded({
      business_ids: [...new Set(accounts.map((a) => a.row.business_id))],
      provider: 'twilio',
      sid,
      dial_status: param(p.data, 'DialCallStatus') ?? '',
    });
    return xml(
      reply,
      voicemail
        ? voicemailTwiml({ publicUrl, greeting: voicemail.greeting, transcribe: twilioTranscribes })
        : EMPTY_TWIML,
    );
  }

  async function recording(request: FastifyRequest, reply: FastifyReply) {
    const { p, accounts } = await signedByAccount(request);
    const sid = param(p.data, 'CallSid');
    const recordingSid = param(p.data, 'RecordingSid');
    const url = param(p.data, 'RecordingUrl');
    if (!sid || !recordingSid || !url) throw malformed('Twilio recording status');
    const done = (param(p.data, 'RecordingStatus') ?? 'completed') === 'completed';
    const account = accounts[0];
    if (account && done) {
      const number = (key: string) => {
        const value = Number(param(p.data, key));
        return Number.isFinite(value) && param(p.data, key) !== undefined ? value : null;
      };
      await ctx.calls.recording(account, {
        sid,
        recording_sid: recordingSid,
        recording_url: url,
        duration: number('RecordingDuration'),
        channels: number('RecordingChannels'),
        voicemail: param(p.data, 'RecordingSource') === 'RecordVerb',
      });
    }
    return xml(reply, EMPTY_TWIML);
  }

  /** Twilio's transcription of a voicemail (`TranscriptionText`, `TranscriptionStatus`). */
  async function transcription(request: FastifyRequest, reply: FastifyReply) {
    const { p, accounts } = await signedByAccount(request);
    const sid = param(p.data, 'CallSid');
    const status = param(p.data, 'TranscriptionStatus');
    if (!sid || !status) throw malformed('Twilio transcription');
    const account = accounts[0];
    if (account)
      await ctx.calls.transcribed(account, {
        sid,
        completed: status === 'completed',
        text: param(p.data, 'TranscriptionText') ?? '',
      });
    return xml(reply, EMPTY_TWIML);
  }

  app.post(VOICE_PATHS.incoming, incoming);
  app.post(VOICE_PATHS.transcription, transcription);
  app.post(VOICE_PATHS.outgoing, outgoing);
  app.post(VOICE_PATHS.status, status);
  app.post(VOICE_PATHS.dialAction, dialAction);
  app.post(VOICE_PATHS.recording, recording);
};
