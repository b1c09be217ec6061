import type { MessageStatus } from '@switchboard/shared';
import { explainTwilioError } from './errors.ts';
import { param, type TwilioParams } from './signature.ts';

export type TwilioInbound = {
  sid: string;
  account_sid: string | undefined;
  messaging_service_sid: string | undefined;
  from: string;
  to: string;
  body: string;
  media: { url: string; content_type: string }[];
};

/** An incoming SMS/MMS webhook's parameters, or null when a required one is missing (→ 400). */
export function parseTwilioInbound(params: TwilioParams): TwilioInbound | null {
  const sid = param(params, 'MessageSid') ?? param(params, 'SmsMessageSid') ?? param(params, 'SmsSid');
  const from = param(params, 'From');
  const to = param(params, 'To');
  if (!sid || !from || !to) return null;
  const count = Number(param(params, 'NumMedia') ?? 0);
  const media: TwilioInbound['media'] = [];
  for (let i = 0; i < (Number.isFinite(count) ? Math.min(count, 10) : 0); i++) {
    const url = param(params, `MediaUrl${i}`);
    if (url)
      media.push({ url, content_type: param(params, `MediaContentType${i}`) ?? 'application/octet-stream' });
  }
  return {
    sid,
    account_sid: param(params, 'AccountSid'),
    messaging_service_sid: param(params, 'MessagingServiceSid'),
    from,
    to,
    body: param(params, 'Body') ?? '',
    media,
  };
}

export type TwilioStatus = {
  sid: string;
  account_sid: string | undefined;
  messaging_service_sid: string | undefined;
  from: string | undefined;
  /** Our status to move to, or null for states we do not track (queued, sending, accepted…). */
  status: MessageStatus | null;
  error: string | null;
  error_code: string | null;
};

/** A StatusCallback's parameters, or null when MessageSid/MessageStatus is missing. */
export function parseTwilioStatus(params: TwilioParams): TwilioStatus | null {
  const sid = param(params, 'MessageSid') ?? param(params, 'SmsSid');
  const raw = param(params, 'MessageStatus') ?? param(params, 'SmsStatus');
  if (!sid || !raw) return null;
  const code = param(params, 'ErrorCode') || null;
  const eventRead = param(params, 'EventType') === 'READ';
  let status: MessageStatus | null;
  switch (raw) {
    case 'sent':
      status = 'sent';
      break;
    case 'delivered':
      status = eventRead ? 'read' : 'delivered';
      break;
    case 'read':
      status = 'read';
      break;
    case 'undelivered':
    case 'failed':
    case 'canceled':
      status = 'failed';
      break;
    default:
      status = null;
  }
  const error =
    status === 'failed'
      ? raw === 'canceled'
        ? 'The message was canceled before it was sent.'
        : explainTwilioError(code, param(params, 'ErrorMessage') ?? `Twilio reported the message ${raw}.`)
      : null;
  return {
    sid,
    account_sid: param(params, 'AccountSid'),
    messaging_service_sid: param(params, 'MessagingServiceSid'),
    from: param(params, 'From'),
    status,
    error,
    error_code: code,
  };
}

const STOP = new Set(['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT']);
const START = new Set(['START', 'UNSTOP', 'YES']);

/**
 * The carrier-standard opt-out keywords: the whole message, ignoring case, spaces and trailing punctuation,
 * as Twilio's Advanced Opt-Out matches them ("Stop." opts out; "please stop texting me" does not).
 */
export function optKeyword(body: string): 'stop' | 'start' | null {
  const word = body
    .trim()
    .replace(/[.!?]+$/, '')
    .toUpperCase();
  if (STOP.has(word)) return 'stop';
  if (START.has(word)) return 'start';
  return null;
}
