import { retryAfterSeconds } from '../../lib/provider-errors.ts';
import { isTransientStatus, jsonOf, providerFetch } from '../../lib/provider-http.ts';
import { explainTwilioError } from './errors.ts';

export type TwilioCredentials = { base: string; timeoutMs: number; account_sid: string; auth_token: string };

/** A Twilio REST answer other than 2xx, with Twilio's error code when it sent one. */
export class TwilioApiError extends Error {
  readonly status: number;
  readonly code: string | null;
  readonly transient: boolean;
  readonly rateLimited: boolean;
  readonly retryAfterSeconds?: number;
  constructor(status: number, code: string | null, message: string, retryAfter?: number) {
    super(message);
    this.status = status;
    this.code = code;
    this.rateLimited = status === 429 || code === '20429';
    this.transient = isTransientStatus(status) || this.rateLimited;
    this.retryAfterSeconds = retryAfter;
  }
}

type TwilioErrorBody = { code?: number | string; message?: string };

/** HTTP Basic auth with the Account SID and Auth Token, as Twilio's API and its media URLs take it. */
export function twilioBasicAuth(creds: { account_sid: string; auth_token: string }): string {
  return `Basic ${Buffer.from(`${creds.account_sid}:${creds.auth_token}`).toString('base64')}`;
}

/** One call to the 2010-04-01 REST API: form-encoded, HTTP Basic auth with the Account SID and Auth Token. */
export async function twilioApi<T>(
  creds: TwilioCredentials,
  method: 'GET' | 'POST',
  path: string,
  params?: URLSearchParams,
): Promise<T> {
  const base = `${creds.base}/2010-04-01/Accounts/${encodeURIComponent(creds.account_sid)}${path}`;
  const url = method === 'GET' && params ? `${base}?${params}` : base;
  const res = await providerFetch('Twilio', url, {
    method,
    timeoutMs: creds.timeoutMs,
    headers: {
      authorization: twilioBasicAuth(creds),
      accept: 'application/json',
      ...(method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    body: method === 'POST' ? (params ?? new URLSearchParams()).toString() : undefined,
  });
  const json = await jsonOf(res);
  if (res.ok) return json as T;
  const body = (json ?? {}) as TwilioErrorBody;
  const code = body.code === undefined ? null : String(body.code);
  throw new TwilioApiError(
    res.status,
    code,
    explainTwilioError(code, body.message ?? `Twilio answered ${res.status}.`),
    retryAfterSeconds(res.headers.get('retry-after')),
  );
}

export type TwilioMessageResource = {
  sid: string;
  status: string;
  error_code?: number | null;
  body?: string;
  to?: string;
  from?: string;
  date_created?: string;
};

/**
 * The account's latest messages to one number (newest first): how a send interrupted by a crash is looked
 * for before it is sent again. Not filtered by sent date, which Twilio leaves empty while a message queues.
 */
export async function listTwilioMessages(
  creds: TwilioCredentials,
  input: { to: string; from?: string | null },
): Promise<TwilioMessageResource[]> {
  const query = new URLSearchParams({ To: input.to, PageSize: '50' });
  if (input.from) query.set('From', input.from);
  const page = await twilioApi<{ messages?: TwilioMessageResource[] }>(creds, 'GET', '/Messages.json', query);
  return page.messages ?? [];
}

export function sendTwilioMessage(
  creds: TwilioCredentials,
  input: {
    to: string;
    from?: string | null;
    messaging_service_sid?: string | null;
    body: string;
    media_urls: string[];
    /** Where Twilio reports delivery; none for texts nobody follows up (sign-up codes). */
    status_callback?: string;
  },
): Promise<TwilioMessageResource> {
  const form = new URLSearchParams();
  form.set('To', input.to);
  if (input.messaging_service_sid) form.set('MessagingServiceSid', input.messaging_service_sid);
  else if (input.from) form.set('From', input.from);
  if (input.body) form.set('Body', input.body);
  for (const url of input.media_urls) form.append('MediaUrl', url);
  if (input.status_callback) form.set('StatusCallback', input.status_callback);
  return twilioApi<TwilioMessageResource>(creds, 'POST', '/Messages.json', form);
}

type AvailableNumbers = { available_phone_numbers?: { phone_number: string }[] };

/** The first available number of this type (Local, Mobile) that can send SMS, or null. */
export async function findAvailableNumber(
  creds: TwilioCredentials,
  input: { country: string; type: 'Local' | 'Mobile'; area_code?: string; contains?: string },
): Promise<string | null> {
  const query = new URLSearchParams({ SmsEnabled: 'true', PageSize: '1' });
  if (input.area_code) query.set('AreaCode', input.area_code);
  if (input.contains) query.set('Contains', input.contains);
  const found = await twilioApi<AvailableNumbers>(
    creds,
    'GET',
    `/AvailablePhoneNumbers/${encodeURIComponent(input.country)}/${input.type}.json`,
    query,
  );
  return found.available_phone_numbers?.[0]?.phone_number ?? null;
}

export type IncomingNumber = { sid: string; phone_number: string };

/** Buys the number and points its messaging webhook and status callback at us. */
export function buyTwilioNumber(
  creds: TwilioCredentials,
  input: { phone_number: string; sms_url: string; status_callback: string },
): Promise<IncomingNumber> {
  const form = new URLSearchParams({
    PhoneNumber: input.phone_number,
    SmsUrl: input.sms_url,
    SmsMethod: 'POST',
    StatusCallback: input.status_callback,
    StatusCallbackMethod: 'POST',
  });
  return twilioApi<IncomingNumber>(creds, 'POST', '/IncomingPhoneNumbers.json', form);
}
