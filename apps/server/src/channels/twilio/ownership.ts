import { AppError } from '../../errors.ts';
import { TransientSendError } from '../../lib/provider-errors.ts';
import { jsonOf, providerFetch } from '../../lib/provider-http.ts';
import type { TwilioConfig } from '../catalogue.ts';
import type { Ownership } from '../types.ts';
import { TwilioApiError, type TwilioCredentials, twilioApi, twilioBasicAuth } from './api.ts';

type IncomingNumbers = { incoming_phone_numbers?: { sid: string; phone_number: string }[] };

/**
 * Whether the number is one of the account's own (`GET /Accounts/{Sid}/IncomingPhoneNumbers.json?PhoneNumber=`,
 * which lists only numbers of the account the credentials belong to).
 */
export async function ownsNumber(creds: TwilioCredentials, phoneNumber: string): Promise<boolean> {
  const query = new URLSearchParams({ PhoneNumber: phoneNumber, PageSize: '20' });
  const page = await twilioApi<IncomingNumbers>(creds, 'GET', '/IncomingPhoneNumbers.json', query);
  return (page.incoming_phone_numbers ?? []).some((n) => n.phone_number === phoneNumber);
}

/**
 * Whether the Messaging Service belongs to the account (`GET {messaging}/v1/Services/{Sid}` with its
 * credentials: Twilio answers 404 for a service of another account).
 */
export async function ownsMessagingService(
  creds: TwilioCredentials & { messagingBase: string },
  serviceSid: string,
): Promise<boolean> {
  const res = await providerFetch(
    'Twilio',
    `${creds.messagingBase}/v1/Services/${encodeURIComponent(serviceSid)}`,
    {
      method: 'GET',
      timeoutMs: creds.timeoutMs,
      headers: { authorization: twilioBasicAuth(creds), accept: 'application/json' },
    },
  );
  const json = (await jsonOf(res)) as { account_sid?: string; code?: number; message?: string } | undefined;
  if (res.ok) return json?.account_sid === undefined || json.account_sid === creds.account_sid;
  if (res.status === 404) return false;
  const code = json?.code === undefined ? null : String(json.code);
  throw new TwilioApiError(res.status, code, json?.message ?? `Twilio answered ${res.status}.`);
}

const REFUSED_CREDENTIALS =
  'Twilio did not accept this Account SID and Auth Token. Copy both again from the Twilio Console (Account info).';

/**
 * Asks Twilio whether these credentials own what the account would receive on: its phone number (among the
 * account's IncomingPhoneNumbers) and its Messaging Service. Refused with what is not theirs; a Twilio that
 * does not answer is a 503, never a pass.
 */
export async function twilioOwnership(
  deps: { base: string; messagingBase: string; timeoutMs: number },
  config: TwilioConfig,
): Promise<Ownership> {
  const creds = { ...deps, account_sid: config.account_sid, auth_token: config.auth_token };
  try {
    if (config.phone_number && !(await ownsNumber(creds, config.phone_number))) {
      throw new AppError(
        'unprocessable',
        `${config.phone_number} is not a phone number of this Twilio account (${config.account_sid}). Enter a number the account owns, as listed under Phone Numbers in the Twilio Console.`,
      );
    }
    if (config.messaging_service_sid && !(await ownsMessagingService(creds, config.messaging_service_sid))) {
      throw new AppError(
        'unprocessable',
        `${config.messaging_service_sid} is not a Messaging Service of this Twilio account (${config.account_sid}).`,
      );
    }
  } catch (error) {
    throw refusal(error);
  }
  return { proven: true };
}

function refusal(error: unknown): unknown {
  if (error instanceof AppError) return error;
  if (error instanceof TransientSendError || (error instanceof TwilioApiError && error.transient))
    return new AppError(
      'service_unavailable',
      'Twilio is not answering right now, so the account could not be checked. Try again in a minute.',
    );
  if (error instanceof TwilioApiError) {
    // 401: the token is not the account's; 403/404: the SID names no account these credentials may read.
    if (error.status === 401 || error.status === 403 || error.status === 404)
      return new AppError('unprocessable', REFUSED_CREDENTIALS);
    return new AppError('unprocessable', `Twilio refused to confirm the account: ${error.message}`);
  }
  return error;
}
