import { z } from 'zod';
import { pageOf, Timestamp } from './fields.ts';
import { PathId, Uuid } from './ids.ts';

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

/** Config fields that are secrets: encrypted at rest, answered masked, kept when a PATCH leaves them out. */
export const SECRET_FIELDS: Record<Provider, readonly string[]> = {
  twilio: ['auth_token', 'api_key_secret'],
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
    /** Calling, set up by "Set up calling": the TwiML App browsers place calls through… */
    twiml_app_sid: z
      .string()
      .trim()
      .regex(/^AP[0-9a-fA-F]{32}$/i, 'The TwiML App SID starts with AP followed by 32 characters.')
      .transform(canonicalSid)
      .nullable()
      .optional(),
    /** …and the API Key the browsers' access tokens are signed with. */
    api_key_sid: z
      .string()
      .trim()
      .regex(/^SK[0-9a-fA-F]{32}$/i, 'The API Key SID starts with SK followed by 32 characters.')
      .transform(canonicalSid)
      .nullable()
      .optional(),
    api_key_secret: z.string().trim().min(1).max(200).nullable().optional(),
    /** Desk phones: the location's SIP domain and the credential list of its people's logins. */
    sip_domain_sid: z.string().trim().max(64).nullable().optional(),
    sip_domain: z.string().trim().max(253).nullable().optional(),
    sip_credential_list_sid: z.string().trim().max(64).nullable().optional(),
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

/** `POST /channels`: the provider and the values copied from its console. */
export const CreateChannelRequest = z.discriminatedUnion('provider', [
  z.strictObject({ location_id: PathId, provider: z.literal('twilio'), config: ProviderConfig.twilio }),
  z.strictObject({ location_id: PathId, provider: z.literal('whatsapp'), config: ProviderConfig.whatsapp }),
  z.strictObject({ location_id: PathId, provider: z.literal('messenger'), config: ProviderConfig.messenger }),
  z.strictObject({ location_id: PathId, provider: z.literal('instagram'), config: ProviderConfig.instagram }),
  z.strictObject({
    location_id: PathId,
    provider: z.literal('google_rcs'),
    config: ProviderConfig.google_rcs,
  }),
]);
export type CreateChannelRequest = z.infer<typeof CreateChannelRequest>;

/** `PATCH /channels/{id}`: checked against the provider's schema on the server, once merged with what is stored. */
export const UpdateChannelRequest = z.strictObject({
  location_id: PathId.optional(),
  config: z.record(z.string(), z.unknown()).optional(),
});
export type UpdateChannelRequest = z.infer<typeof UpdateChannelRequest>;

/** `GET /channels` */
export const ListChannelsQuery = z.strictObject({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(10),
  location_id: PathId.optional(),
  provider: z.enum(PROVIDERS).optional(),
});

/**
 * A connected provider account as answered: secrets masked ('••••cdef'), the webhook URLs to paste into the
 * provider's console, and `problem` when it cannot work as stored. Declared as the routes' response, so a
 * field not named here is never sent.
 */
export const ChannelAccount = z.object({
  id: z.string(),
  business_id: z.string(),
  location_id: z.string(),
  provider: z.enum(PROVIDERS),
  channels: z.array(z.string()),
  address: z.string().nullable(),
  config: z.record(z.string(), z.unknown()),
  webhooks: z.record(z.string(), z.string()),
  /**
   * Set when the account cannot work as stored (its credentials cannot be read, or another business proved the
   * address is theirs and it was disconnected): what happened and what the owner should do.
   */
  problem: z.string().nullable(),
  /** When the provider confirmed these credentials own the address; null when it never did (see `problem`). */
  verified_at: Timestamp.nullable(),
  /** When another business proved the address is theirs: the account receives and sends nothing since. */
  disconnected_at: Timestamp.nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
/** On the wire (what the web app receives). */
export type ChannelAccountJson = z.input<typeof ChannelAccount>;

export const ChannelAccountPage = pageOf(ChannelAccount);

/** A WhatsApp message template of the connected WhatsApp Business account. */
export const WhatsAppTemplateSchema = z.object({
  name: z.string(),
  language: z.string(),
  status: z.string(),
  category: z.string().nullable(),
  body: z.string().nullable(),
  /** `1`, `2`… for positional templates; the names for named ones. */
  variables: z.array(z.string()),
  parameter_format: z.enum(['POSITIONAL', 'NAMED']),
});
export type WhatsAppTemplate = z.input<typeof WhatsAppTemplateSchema>;

/** `GET /channels/{id}/whatsapp-templates` and `GET /enquiries/{id}/whatsapp-templates`. */
export const WhatsAppTemplateList = z.object({
  items: z.array(WhatsAppTemplateSchema),
  synced_at: z.string().nullable(),
});

/** `?refresh=true` syncs from Meta now instead of using the list cached for 15 minutes. */
export const TemplatesRefreshQuery = z.strictObject({
  refresh: z
    .enum(['true', 'false', '1', '0'])
    .transform((v) => v === 'true' || v === '1')
    .default(false),
});

/** `POST /enquiries/{id}/whatsapp-template`: an approved template with its variables filled in. */
export const SendTemplateRequest = z.strictObject({
  name: z.string().trim().min(1).max(512),
  language: z.string().trim().min(2).max(20),
  variables: z.array(z.string().max(1024)).max(50).default([]),
});
export type SendTemplateRequest = z.input<typeof SendTemplateRequest>;

/** `POST /business/locations/purchase-number/{id}`: where to look for a number; all optional. */
export const PurchaseNumberRequest = z
  .strictObject({
    country: z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^[A-Z]{2}$/, 'Use a two-letter country code, such as AU.')
      .optional(),
    area_code: z
      .string()
      .trim()
      .regex(/^\d{1,6}$/, 'The area code is digits only.')
      .optional(),
    contains: z
      .string()
      .trim()
      .regex(/^[\d*]{1,16}$/, 'Use digits (and * for any digit).')
      .optional(),
  })
  .nullish()
  .transform((v) => v ?? {});

/** The number a location was given, and the Twilio account it now belongs to (null in the sandbox). */
export const PurchasedNumber = z.object({
  location_id: z.string(),
  phone_number: z.string(),
  provider: z.enum(['twilio', 'sandbox']),
  channel: ChannelAccount.nullable(),
});
export type PurchasedNumberJson = z.input<typeof PurchasedNumber>;

/**
 * `GET /channels/reach?location_id=`: every number and address customers reach a location on, from its
 * connected channels, and which of them Switchboard starts a conversation from (per channel).
 */
export const LocationReachSchema = z.object({
  location_id: z.string(),
  items: z.array(
    z.object({
      channel: z.string(),
      label: z.string(),
      address: z.string(),
      via: z.string(),
      /** New conversations on this channel start from here. */
      starts_conversations: z.boolean(),
      note: z.string().nullable(),
    }),
  ),
});
export type LocationReach = z.input<typeof LocationReachSchema>;
export const LocationReachQuery = z.strictObject({ location_id: Uuid });

/** Countries numbers can be bought in through the platform account, and what each one's numbers need. */
export const PLATFORM_NUMBER_COUNTRIES = ['AU', 'US', 'CA', 'GB'] as const;

const countryField = z
  .string({ error: 'Choose a country.' })
  .trim()
  .toUpperCase()
  .pipe(z.enum(PLATFORM_NUMBER_COUNTRIES, { error: 'Numbers can be bought in AU, US, CA or GB.' }));

/** `GET /channels/numbers/available`: numbers for sale, narrowed by area code, town or digits. */
export const AvailableNumbersQuery = z.strictObject({
  location_id: Uuid,
  country: countryField,
  area_code: z
    .string()
    .trim()
    .regex(/^\d{1,6}$/, 'The area code is digits only, such as 415.')
    .optional(),
  in_locality: z.string().trim().min(2, 'Enter at least 2 letters of the town.').max(60).optional(),
  contains: z
    .string()
    .trim()
    .regex(/^[\d*]{2,16}$/, 'Use 2 to 16 digits (and * for any digit).')
    .optional(),
});

export const AvailableNumberSchema = z.object({
  phone_number: z.string(),
  /** As people write it in the number's country, such as (415) 555-0100. */
  formatted: z.string(),
  locality: z.string().nullable(),
  region: z.string().nullable(),
  iso_country: z.string(),
  capabilities: z.object({ sms: z.boolean(), voice: z.boolean(), mms: z.boolean() }),
});
export type AvailableNumber = z.input<typeof AvailableNumberSchema>;
export const AvailableNumberList = z.object({
  country: z.string(),
  /** Which Twilio numbers were searched: Local, or Mobile where local numbers cannot text. */
  number_type: z.enum(['local', 'mobile']),
  items: z.array(AvailableNumberSchema),
});

/** `POST /channels/numbers`: buys a number found above for the location. */
export const BuyNumberRequest = z.strictObject({
  location_id: Uuid,
  phone_number: E164,
});

export const REGISTRATION_STATES = ['not_required', 'required', 'pending', 'approved', 'rejected'] as const;
export type RegistrationState = (typeof REGISTRATION_STATES)[number];

/** A number bought through the platform account, with what carriers need before it may text. */
export const PlatformNumberSchema = z.object({
  id: z.string(),
  location_id: z.string().nullable(),
  phone_number: z.string(),
  formatted: z.string(),
  iso_country: z.string(),
  number_type: z.string(),
  registration: z.object({
    state: z.enum(REGISTRATION_STATES),
    /** What the state means for this number, in a sentence. */
    summary: z.string(),
    /** What the owner should do, or null when nothing. */
    action: z.string().nullable(),
  }),
  released_at: Timestamp.nullable(),
  created_at: Timestamp,
});
export type PlatformNumber = z.input<typeof PlatformNumberSchema>;

/** `GET /channels/numbers?location_id=`: whether numbers can be bought here, and those the location holds. */
export const PlatformNumbersQuery = z.strictObject({ location_id: Uuid });
export const PlatformNumberList = z.object({
  /** A platform Twilio account is configured: owners can buy numbers without their own Twilio account. */
  available: z.boolean(),
  /** Sandbox mode: "Get a number" still draws a fictional number (the simulator texts and calls it). */
  sandbox: z.boolean(),
  items: z.array(PlatformNumberSchema),
});
export const BoughtNumber = z.object({ number: PlatformNumberSchema, channel: ChannelAccount });
