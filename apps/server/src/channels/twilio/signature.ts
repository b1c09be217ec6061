import { validateRequest, validateRequestWithBody } from 'twilio/lib/webhooks/webhooks.js';

/** Decoded form parameters; a repeated name keeps every value, as Twilio's own validator expects. */
export type TwilioParams = Record<string, string | string[]>;

export function parseForm(raw: string): TwilioParams {
  const params: TwilioParams = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    const seen = params[key];
    if (seen === undefined) params[key] = value;
    else params[key] = Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return params;
}

/** The single value of a parameter (the first when repeated). */
export function param(params: TwilioParams, key: string): string | undefined {
  const value = params[key];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * `X-Twilio-Signature` as twilio-node checks it: base64(HMAC-SHA1(auth token, full public URL + sorted
 * params)), accepting the URL with and without its default port. A JSON body is signed instead through the
 * `bodySHA256` query parameter (HMAC over the URL alone, then SHA-256 of the raw body).
 */
export function verifyTwilioSignature(input: {
  authToken: string;
  signature: string;
  url: string;
  params: TwilioParams;
  rawBody?: string;
  json?: boolean;
}): boolean {
  if (!input.signature || !input.authToken) return false;
  if (input.json) {
    if (!new URL(input.url).searchParams.has('bodySHA256')) return false;
    return validateRequestWithBody(input.authToken, input.signature, input.url, input.rawBody ?? '');
  }
  return validateRequest(input.authToken, input.signature, input.url, input.params);
}
