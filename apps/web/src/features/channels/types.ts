import type { Provider, PurchasedNumberJson } from '@switchboard/shared';

export type ChannelInput = { location_id: string; provider: Provider; config: Record<string, string | null> };

export type PurchasedNumber = PurchasedNumberJson;

export type ProviderField = {
  name: string;
  label: string;
  secret?: boolean;
  optional?: boolean;
  multiline?: boolean;
  placeholder?: string;
};

export const PROVIDER_NAMES: Readonly<Record<Provider, string>> = {
  twilio: 'Twilio (SMS & MMS)',
  whatsapp: 'WhatsApp',
  messenger: 'Facebook Messenger',
  instagram: 'Instagram',
  google_rcs: 'Google RCS',
};

/** What each provider's console calls the values a person copies from it. */
export const PROVIDER_FIELDS: Readonly<Record<Provider, readonly ProviderField[]>> = {
  twilio: [
    { name: 'account_sid', label: 'Account SID', placeholder: 'AC…' },
    { name: 'auth_token', label: 'Auth Token', secret: true },
    { name: 'phone_number', label: 'Phone number', optional: true, placeholder: '+61 491 570 156' },
    { name: 'messaging_service_sid', label: 'Messaging Service SID', optional: true, placeholder: 'MG…' },
  ],
  whatsapp: [
    { name: 'phone_number_id', label: 'Phone number ID' },
    { name: 'waba_id', label: 'WhatsApp Business Account ID', optional: true },
    { name: 'access_token', label: 'Access token', secret: true },
    { name: 'app_secret', label: 'App Secret', secret: true },
    { name: 'verify_token', label: 'Verify token', secret: true },
  ],
  messenger: [
    { name: 'page_id', label: 'Page ID' },
    { name: 'page_access_token', label: 'Page access token', secret: true },
    { name: 'app_secret', label: 'App Secret', secret: true },
    { name: 'verify_token', label: 'Verify token', secret: true },
  ],
  instagram: [
    { name: 'instagram_account_id', label: 'Instagram account ID' },
    { name: 'access_token', label: 'Access token', secret: true },
    { name: 'app_secret', label: 'App Secret', secret: true },
    { name: 'verify_token', label: 'Verify token', secret: true },
  ],
  google_rcs: [
    { name: 'agent_id', label: 'Agent ID', placeholder: 'my_agent@rbm.goog' },
    { name: 'client_token', label: 'Webhook client token', secret: true },
    { name: 'service_account_json', label: 'Service account key (JSON)', secret: true, multiline: true },
  ],
};

/** What each webhook URL the server answers is called in the provider's console. */
export const WEBHOOK_LABELS: Readonly<Record<string, string>> = {
  messaging_url: 'Messaging webhook',
  status_callback_url: 'Status callback',
  voice_url: 'Voice webhook (calls)',
  callback_url: 'Callback URL',
  webhook_url: 'Webhook URL',
};

/** Where in the provider's console each URL is pasted. */
export const WEBHOOK_HINTS: Readonly<Record<Provider, string>> = {
  twilio:
    'Twilio Console → Phone Numbers → your number → Messaging: "A message comes in" (HTTP POST); the status callback goes on the Messaging Service or is set per message.',
  whatsapp:
    'Meta App Dashboard → WhatsApp → Configuration → Webhook: paste the callback URL and your verify token, then subscribe to "messages".',
  messenger:
    'Meta App Dashboard → Messenger → Settings → Webhooks: paste the callback URL and verify token, subscribe the Page to "messages".',
  instagram:
    'Meta App Dashboard → Instagram → Webhooks: paste the callback URL and verify token, subscribe to "messages".',
  google_rcs:
    'RBM Developer Console → your agent → Integrations → Webhook: paste the URL and the same client token.',
};
