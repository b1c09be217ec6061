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

/** One call to the 2010-04-01 REST API, under the account's own path (`/Accounts/{Sid}…`). */
export function twilioApi<T>(
  creds: TwilioCredentials,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  params?: URLSearchParams,
): Promise<T> {
  return twilioRequest<T>(creds, method, `/Accounts/${encodeURIComponent(creds.account_sid)}${path}`, params);
}

/**
 * One call to the 2010-04-01 REST API at `path` below `/2010-04-01`: form-encoded, HTTP Basic auth with the
 * Account SID and Auth Token. A 204 (a deleted resource) answers undefined.
 */
export async function twilioRequest<T>(
  creds: TwilioCredentials,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  params?: URLSearchParams,
): Promise<T> {
  const base = `${creds.base}/2010-04-01${path}`;
  const url = method !== 'POST' && params ? `${base}?${params}` : base;
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

/** A number Twilio offers, as the AvailablePhoneNumbers list resources answer it. */
export type AvailableNumber = {
  phone_number: string;
  friendly_name?: string | null;
  locality?: string | null;
  region?: string | null;
  iso_country?: string | null;
  capabilities?: { voice?: boolean; SMS?: boolean; MMS?: boolean; sms?: boolean; mms?: boolean } | null;
};

/** Up to `page_size` SMS-capable numbers of this type for sale in the country, narrowed as asked. */
export async function searchAvailableNumbers(
  creds: TwilioCredentials,
  input: {
    country: string;
    type: 'Local' | 'Mobile';
    area_code?: string;
    contains?: string;
    in_locality?: string;
    page_size: number;
  },
): Promise<AvailableNumber[]> {
  const query = new URLSearchParams({ SmsEnabled: 'true', PageSize: String(input.page_size) });
  if (input.area_code) query.set('AreaCode', input.area_code);
  if (input.contains) query.set('Contains', input.contains);
  if (input.in_locality) query.set('InLocality', input.in_locality);
  const found = await twilioApi<{ available_phone_numbers?: AvailableNumber[] }>(
    creds,
    'GET',
    `/AvailablePhoneNumbers/${encodeURIComponent(input.country)}/${input.type}.json`,
    query,
  );
  return found.available_phone_numbers ?? [];
}

export type TwilioSubaccount = { sid: string; auth_token: string; friendly_name?: string; status?: string };

/** Creates a subaccount of the account `creds` names (`POST /2010-04-01/Accounts.json`). */
export function createSubaccount(creds: TwilioCredentials, friendlyName: string): Promise<TwilioSubaccount> {
  return twilioRequest<TwilioSubaccount>(
    creds,
    'POST',
    '/Accounts.json',
    new URLSearchParams({ FriendlyName: friendlyName }),
  );
}

/** Closes a subaccount (its numbers are released with it); the parent account's credentials ask. */
export function closeSubaccount(creds: TwilioCredentials, sid: string): Promise<TwilioSubaccount> {
  return twilioRequest<TwilioSubaccount>(
    creds,
    'POST',
    `/Accounts/${encodeURIComponent(sid)}.json`,
    new URLSearchParams({ Status: 'closed' }),
  );
}

/** Buys the number with its texts, their delivery reports and its calls all pointed at this deployment. */
export function provisionTwilioNumber(
  creds: TwilioCredentials,
  input: { phone_number: string; sms_url: string; status_callback: string; voice_url: string },
): Promise<IncomingNumber> {
  const form = new URLSearchParams({
    PhoneNumber: input.phone_number,
    SmsUrl: input.sms_url,
    SmsMethod: 'POST',
    StatusCallback: input.status_callback,
    StatusCallbackMethod: 'POST',
    VoiceUrl: input.voice_url,
    VoiceMethod: 'POST',
  });
  return twilioApi<IncomingNumber>(creds, 'POST', '/IncomingPhoneNumbers.json', form);
}

/** Releases a number (`DELETE …/IncomingPhoneNumbers/{Sid}.json`); one already gone counts as released. */
export async function releaseTwilioNumber(creds: TwilioCredentials, sid: string): Promise<void> {
  try {
    await twilioApi<undefined>(creds, 'DELETE', `/IncomingPhoneNumbers/${encodeURIComponent(sid)}.json`);
  } catch (error) {
    if (error instanceof TwilioApiError && error.status === 404) return;
    throw error;
  }
}
