/**
 * Plain-English reasons for the Graph API / WhatsApp Cloud API / Send API error codes a business meets
 * (developers.facebook.com: WhatsApp "Error codes", Messenger Send API "Errors").
 */
const META_ERRORS: Record<string, string> = {
  // Graph API, all products
  '1': 'Meta had a temporary problem.',
  '2': 'Meta had a temporary problem.',
  '4': 'Meta is rate limiting this app. The message will be retried.',
  '10': 'The app does not have permission to send this message.',
  '17': 'Meta is rate limiting this account. The message will be retried.',
  '32': 'Meta is rate limiting this Page. The message will be retried.',
  '100': 'Meta refused the request as invalid (a parameter is wrong or missing).',
  '190': 'The access token has expired or was revoked. Reconnect the channel with a new token.',
  '200': 'The app does not have permission to send this message.',
  '368': 'Meta has temporarily blocked this account from sending for policy violations.',
  '613': 'Meta is rate limiting this account. The message will be retried.',
  '80007': 'Meta is rate limiting this account. The message will be retried.',
  // WhatsApp Cloud API
  '130429': 'WhatsApp is rate limiting this number. The message will be retried.',
  '130472': "WhatsApp did not deliver this message as part of an experiment on the customer's account.",
  '131000': 'WhatsApp had a temporary problem sending the message.',
  '131005': 'The access token does not have permission to send from this WhatsApp number.',
  '131008': 'A required part of the WhatsApp message is missing.',
  '131009': 'Part of the WhatsApp message is not valid.',
  '131016': 'WhatsApp is temporarily unavailable.',
  '131021': 'A WhatsApp number cannot message itself.',
  '131026':
    "The message could not be delivered: the customer's number may not be on WhatsApp, or they use an old version of WhatsApp.",
  '131031': 'The WhatsApp Business account is locked.',
  '131042': 'There is a payment problem on the WhatsApp Business account.',
  '131045': 'The WhatsApp number is not registered with the Cloud API.',
  '131047':
    'More than 24 hours have passed since the customer last replied, so only an approved template can be sent.',
  '131049': 'Meta chose not to deliver this marketing message to keep engagement healthy. Try again later.',
  '131050': 'The customer has stopped marketing messages from this business.',
  '131051': 'WhatsApp does not support this kind of message.',
  '131052': 'WhatsApp could not download the media the customer sent.',
  '131053': 'WhatsApp could not use the attachment (unsupported type or too large).',
  '131056': 'Too many messages to this customer in a short time. The message will be retried.',
  '132000': "The number of template variables does not match the template's.",
  '132001': 'This template does not exist in that language, or is not approved yet.',
  '132005': 'The template text with its variables is too long.',
  '132007': "The template's content breaks WhatsApp's formatting policy.",
  '132012': 'A template variable is not in the format the template expects.',
  '132015': 'The template is paused because of low quality.',
  '132016': 'The template has been disabled by WhatsApp.',
  '133010': 'The WhatsApp number is not registered.',
  // Messenger / Instagram Send API
  '551':
    "This person isn't available right now (they may have blocked the Page or deactivated their account).",
  '1545041': "This person isn't available right now.",
  '2018001': 'No matching user was found for this conversation.',
  '2018278':
    'More than 24 hours have passed since the customer last wrote, so Meta does not allow a reply outside a message tag.',
  '2534022': 'This message is outside the allowed messaging window for Instagram.',
};

/** Codes meaning "try again later". */
const TRANSIENT = new Set([
  '1',
  '2',
  '4',
  '17',
  '32',
  '613',
  '80007',
  '130429',
  '131000',
  '131016',
  '131056',
]);

export function explainMetaError(
  code: string | number | null | undefined,
  subcode?: string | number | null,
  fallback?: string,
): string {
  const known =
    (subcode && META_ERRORS[String(subcode)]) ||
    (code !== undefined && code !== null && META_ERRORS[String(code)]);
  const label = code === undefined || code === null ? 'Meta error' : `Meta error ${code}`;
  return `${label}: ${known || fallback || 'the message could not be sent.'}`;
}

export function isTransientMetaError(code: string | number | null | undefined, isTransientFlag?: boolean) {
  return isTransientFlag === true || (code !== undefined && code !== null && TRANSIENT.has(String(code)));
}
