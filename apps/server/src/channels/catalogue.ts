import { CHANNELS_OF, PROVIDERS, type Provider, type ProviderConfigOf } from '@switchboard/shared';

/** The inbox channel's provider, if any provider carries it. */
export function providerOfChannel(channel: string): Provider | undefined {
  return PROVIDERS.find((p) => CHANNELS_OF[p].includes(channel));
}

export type TwilioConfig = ProviderConfigOf['twilio'];
export type WhatsAppConfig = ProviderConfigOf['whatsapp'];
export type MessengerConfig = ProviderConfigOf['messenger'];
export type InstagramConfig = ProviderConfigOf['instagram'];
export type RcsConfig = ProviderConfigOf['google_rcs'];

/** The provider-side address that routes a webhook to the account (indexed as channel_accounts.address). */
export function addressOf(provider: Provider, config: Record<string, unknown>): string | null {
  const pick = (key: string) => (typeof config[key] === 'string' ? (config[key] as string) : null);
  switch (provider) {
    case 'twilio':
      return pick('phone_number') ?? pick('messaging_service_sid');
    case 'whatsapp':
      return pick('phone_number_id');
    case 'messenger':
      return pick('page_id');
    case 'instagram':
      return pick('instagram_account_id');
    case 'google_rcs':
      return pick('agent_id');
    default: {
      const never: never = provider;
      return never;
    }
  }
}

/**
 * The config field naming the provider-side account itself (not one number or page): it belongs to one
 * business only, because webhooks and status callbacks are matched by it.
 */
export const OWNED_FIELD: Partial<Record<Provider, { field: string; label: string }>> = {
  twilio: { field: 'account_sid', label: 'Twilio account' },
  whatsapp: { field: 'waba_id', label: 'WhatsApp Business Account' },
};

export const PROVIDER_NAMES: Record<Provider, string> = {
  twilio: 'Twilio',
  whatsapp: 'WhatsApp',
  messenger: 'Messenger',
  instagram: 'Instagram',
  google_rcs: 'Google RCS',
};
