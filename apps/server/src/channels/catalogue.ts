import { z } from 'zod';

/** The providers an account can be connected for, and the inbox channels each one carries. */
export const PROVIDERS = ['twilio', 'whatsapp', 'messenger', 'instagram', 'google_rcs'] as const;
export type Provider = (typeof PROVIDERS)[number];

export const CHANNELS_OF: Record<Provider, string[]> = {
  twilio: ['sms', 'mms'],
  whatsapp: ['whatsapp'],
  messenger: ['facebook'],
  instagram: ['instagram'],
  google_rcs: ['google_rcs'],
};

export function providerOfChannel(channel: string): Provider | undefined {
  return PROVIDERS.find((p) => CHANNELS_OF[p].includes(channel));
}

/** Config fields that are secrets: encrypted at rest, answered masked, kept when a PATCH leaves them out. */
export const SECRET_FIELDS: Record<Provider, readonly string[]> = {
  twilio: ['auth_token'],
  whatsapp: ['access_token', 'app_secret', 'verify_token'],
  messenger: ['page_access_token', 'app_secret', 'verify_token'],
  instagram: ['access_token', 'app_secret', 'verify_token'],
  google_rcs: ['client_token', 'service_account_json'],
};

const secret = (what: string) =>
  z
    .string({ error: `Enter the ${what}.` })
    .trim()
    .min(1, `Enter the ${what}.`)
    .max(8192, `The ${what} is too long.`);

const numericId = (what: string) =>
  z
    .string({ error: `Enter the ${what}.` })
    .trim()
    .regex(/^\d{5,30}$/, `The ${what} is a number, such as 100000000000002.`);

export const E164 = z
  .string()
  .transform((v) => v.replace(/[\s().-]/g, ''))
  .pipe(
    z
      .string()
      .regex(/^\+[1-9]\d{6,14}$/, 'Enter the number in international format, such as +61 491 570 156.'),
  );

const ServiceAccountJson = z
  .union([z.string(), z.record(z.string(), z.unknown())])
  .transform((value, ctx) => {
    let parsed: unknown = value;
    if (typeof value === 'string') {
      try {
        parsed = JSON.parse(value);
      } catch {
        parsed = undefined;
      }
    }
    const key = parsed as { client_email?: unknown; private_key?: unknown } | undefined;
    if (!key || typeof key.client_email !== 'string' || typeof key.private_key !== 'string') {
      ctx.addIssue({
        code: 'custom',
        message: 'Paste the service account key JSON file (it has client_email and private_key).',
      });
      return z.NEVER;
    }
    return JSON.stringify(parsed);
  });

const canonicalSid = (sid: string) => sid.slice(0, 2).toUpperCase() + sid.slice(2).toLowerCase();

export const ProviderConfig = {
  twilio: z.strictObject({
    account_sid: z
      .string({ error: 'Enter the Account SID.' })
      .trim()
      .regex(/^AC[0-9a-fA-F]{32}$/i, 'The Account SID starts with AC followed by 32 characters.')
      // Twilio spells SIDs with lower-case hex; one spelling keeps lookups and the one-business rule exact.
      .transform(canonicalSid),
    auth_token: secret('Auth Token'),
    phone_number: E164.nullable().optional(),
    messaging_service_sid: z
      .string()
      .trim()
      .regex(/^MG[0-9a-fA-F]{32}$/i, 'The Messaging Service SID starts with MG followed by 32 characters.')
      .transform(canonicalSid)
      .nullable()
      .optional(),
    /** Set when the number was bought here (IncomingPhoneNumber SID). */
    phone_number_sid: z.string().trim().max(64).nullable().optional(),
  }),
  whatsapp: z.strictObject({
    phone_number_id: numericId('phone number ID'),
    waba_id: numericId('WhatsApp Business Account ID').nullable().optional(),
    display_phone_number: z.string().trim().max(40).nullable().optional(),
    access_token: secret('access token'),
    app_secret: secret('App Secret'),
    verify_token: secret('verify token'),
  }),
  messenger: z.strictObject({
    page_id: numericId('Page ID'),
    page_access_token: secret('Page access token'),
    app_secret: secret('App Secret'),
    verify_token: secret('verify token'),
  }),
  instagram: z.strictObject({
    instagram_account_id: numericId('Instagram account ID'),
    access_token: secret('access token'),
    app_secret: secret('App Secret'),
    verify_token: secret('verify token'),
  }),
  google_rcs: z.strictObject({
    agent_id: z
      .string({ error: 'Enter the agent ID.' })
      .trim()
      .min(3, 'Enter the agent ID.')
      .max(200)
      .regex(/^[\w.@-]+$/, 'The agent ID is like my_agent@rbm.goog.'),
    client_token: secret('webhook client token'),
    service_account_json: ServiceAccountJson,
  }),
} satisfies Record<Provider, z.ZodType>;

export type ProviderConfigOf = { [P in Provider]: z.output<(typeof ProviderConfig)[P]> };
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
