/**
 * Plain-English reasons for the Twilio error codes a front desk actually meets
 * (twilio.com/docs/api/errors). Unknown codes fall back to Twilio's own message.
 */
const TWILIO_ERRORS: Record<string, string> = {
  '20003':
    "Twilio rejected this account's credentials. Check the Account SID and Auth Token in channel settings.",
  '20404': 'Twilio could not find this account or number. Check the channel settings.',
  '20429': 'Twilio is rate limiting this account. The message will be retried.',
  '21211': "The customer's phone number is not a valid phone number.",
  '21408': "This Twilio account is not allowed to send SMS to the customer's country.",
  '21606': "This location's Twilio number cannot send SMS. Choose an SMS-capable number.",
  '21608': 'A Twilio trial account can only send to verified numbers.',
  '21610':
    'This customer has opted out of SMS (they replied STOP). They must text START to receive messages again.',
  '21612': "The customer's number cannot receive SMS from this Twilio number.",
  '21614': "The customer's number is not a mobile number, so it cannot receive SMS.",
  '21617': 'The message is longer than 1,600 characters.',
  '21620': 'An attachment could not be sent: Twilio could not use its link.',
  '21621': 'Twilio could not fetch an attachment in time.',
  '30001': 'Twilio had too many messages queued for this number; the message was not sent. Try again later.',
  '30002': 'The Twilio account is suspended.',
  '30003': "The customer's phone is switched off or out of coverage, so the message could not be delivered.",
  '30004': 'The message was blocked: the customer may have blocked this number, or their carrier did.',
  '30005': "The customer's number does not exist or is no longer in service.",
  '30006': "The customer's number is a landline or its carrier cannot receive SMS.",
  '30007': "The customer's carrier filtered the message as spam.",
  '30008': "The customer's carrier could not deliver the message (unknown carrier error).",
  '30034': 'The message was blocked because the sending number is not registered for A2P 10DLC (US).',
  '11200': 'Twilio could not reach one of our links (for example an attachment).',
};

export function explainTwilioError(code: string | number | null | undefined, fallback?: string): string {
  if (code === null || code === undefined || code === '')
    return fallback ?? 'Twilio could not send the message.';
  const known = TWILIO_ERRORS[String(code)];
  return `Twilio error ${code}: ${known ?? fallback ?? 'the message could not be sent.'}`;
}

export const OPTED_OUT_CODE = '21610';
export const OPTED_OUT_REASON =
  'This customer has opted out of SMS (they replied STOP). They must text START to receive messages again.';
