import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ATTACHMENT_MAX_BYTES } from '@switchboard/shared';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const PROXY_KEYWORDS = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** A proxy address, a CIDR range, or one of proxy-addr's names for a range (loopback, linklocal, uniquelocal). */
function isProxyEntry(entry: string): boolean {
  if (PROXY_KEYWORDS.has(entry)) return true;
  if (ipaddr.isValid(entry)) return true;
  try {
    ipaddr.parseCIDR(entry);
    return true;
  } catch {
    return false;
  }
}

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// URL')
    .optional(),
  PUBLIC_URL: z.url().optional(),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  ENCRYPTION_KEY: z
    .string()
    .regex(/^[0-9a-f]{64}$/i, 'must be 64 hex characters (32 bytes)')
    .optional(),
  SANDBOX_MODE: bool.default(true),
  TRUST_PROXY: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean),
    )
    .refine(
      (entries) => entries.every(isProxyEntry),
      'must be a comma-separated list of proxy addresses or CIDR ranges (or loopback, linklocal, uniquelocal)',
    ),
  SESSION_DAYS: z.coerce.number().positive().default(14),
  REOPEN_WINDOW_DAYS: z.coerce.number().min(0).default(30),
  WIDGET_SMS_AFTER_MINUTES: z.coerce.number().min(0).default(5),
  TOKEN_RENEW_AFTER_SECONDS: z.coerce.number().int().min(0).default(3600),
  LOGIN_MAX_PER_IP: z.coerce.number().int().positive().default(30),
  LOGIN_MAX_PER_EMAIL: z.coerce.number().int().positive().default(10),
  LOGIN_WINDOW_SECONDS: z.coerce.number().int().positive().default(900),
  UPLOAD_MAX_BYTES: z.coerce.number().int().positive().default(ATTACHMENT_MAX_BYTES),
  IMAGE_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(5 * 1024 * 1024),
  /** How long reading one uploaded file, fetched page or image may take before it is refused. */
  READ_TIMEOUT_MS: z.coerce.number().int().positive().default(20_000),
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(1024 * 1024),
  MARKETING_SCRIPT_URL: z.url().optional(),
  WEB_DIST: z.string().optional(),
  WIDGET_DIST: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TWILIO_API_BASE: z.url().default('https://api.twilio.com'),
  /** Twilio's Messaging API (Messaging Services), asked whether a service belongs to a connected account. */
  TWILIO_MESSAGING_API_BASE: z.url().default('https://messaging.twilio.com'),
  GRAPH_API_BASE: z.url().default('https://graph.facebook.com/v24.0'),
  RBM_API_BASE: z.url().default('https://rcsbusinessmessaging.googleapis.com'),
  GOOGLE_OAUTH_TOKEN_URL: z.url().default('https://oauth2.googleapis.com/token'),
  PROVIDER_TIMEOUT_MS: z.coerce.number().int().positive().default(15_000),
  /** An OpenAI-compatible speech-to-text server (OpenAI, faster-whisper, whisper.cpp): calls are transcribed there. */
  TRANSCRIBE_BASE_URL: z.url().optional(),
  TRANSCRIBE_API_KEY: z.string().min(1).optional(),
  TRANSCRIBE_MODEL: z.string().min(1).default('whisper-1'),
  /** `twilio`: voicemails are transcribed by Twilio (`<Record transcribe>`); else the server above, when set. */
  TRANSCRIBE_PROVIDER: z.enum(['openai', 'twilio']).optional(),
  /** An OpenAI-compatible chat model the assistant uses; without it the built-in assistant (no model) answers. */
  AI_BASE_URL: z.url().optional(),
  AI_API_KEY: z.string().min(1).optional(),
  AI_MODEL: z.string().min(1).default('gpt-4o-mini'),
  /** An embeddings model on the same server: FAQs are then also found by meaning (hybrid retrieval). */
  AI_EMBEDDINGS_MODEL: z.string().min(1).optional(),
  /**
   * Origins (comma-separated) the assistant may fetch from although they are private addresses: websites it
   * learns from and its HTTP tools. For tests against a loopback server; never needed in production.
   */
  AI_FETCH_ALLOW_ORIGINS: z.string().optional(),
  /**
   * Web Push (VAPID) keys, base64url: set both when several nodes serve one installation; without them one node
   * generates its own pair into DATA_DIR/vapid.json on first use.
   */
  VAPID_PUBLIC_KEY: z.string().min(40).optional(),
  VAPID_PRIVATE_KEY: z.string().min(20).optional(),
  /** Who push services may contact about this server's pushes: a `mailto:` or `https:` URL. */
  VAPID_SUBJECT: z
    .string()
    .regex(/^(mailto:|https:\/\/)\S+$/, 'VAPID_SUBJECT is a mailto: or https: URL')
    .optional(),
  /**
   * Where the web app asks for its reports (an origin and path serving `/enquiries`, `/calls`, … with the same
   * tokens); unset: this server's `/api/v1/analytics`.
   */
  ANALYTICS_URL: z.url('ANALYTICS_URL must be a URL').optional(),
  /** Push service origins (comma-separated) allowed although private addresses: for tests on loopback only. */
  PUSH_ALLOW_ORIGINS: z.string().optional(),
  /** How long one AI call may take (spec §9: 300000 ms). */
  AI_TIMEOUT_MS: z.coerce.number().int().positive().default(300_000),
  /** Stripe (Connect, direct charges): without a key, invoices are paid on the sandbox payment page in sandbox mode. */
  STRIPE_SECRET_KEY: z.string().min(1).optional(),
  /** The Connect webhook endpoint's signing secret (`whsec_…`) for `POST /webhooks/stripe`. */
  STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
  STRIPE_API_BASE: z.url().default('https://api.stripe.com'),
  /** The platform's fee on each invoice payment, in basis points of its total (100 = 1%). */
  STRIPE_APPLICATION_FEE_BPS: z.coerce.number().int().min(0).max(5000).default(0),
  /** Card payments started from one pay link, and from one client address, per window. */
  CHECKOUT_MAX_PER_LINK: z.coerce.number().int().positive().default(10),
  CHECKOUT_MAX_PER_IP: z.coerce.number().int().positive().default(30),
  CHECKOUT_WINDOW_SECONDS: z.coerce.number().int().positive().default(600),
  /** A Google OAuth client with the Business Profile API: owners link each location to its Business Profile place. */
  GOOGLE_BUSINESS_CLIENT_ID: z.string().min(1).optional(),
  GOOGLE_BUSINESS_CLIENT_SECRET: z.string().min(1).optional(),
  GOOGLE_OAUTH_AUTH_URL: z.url().default('https://accounts.google.com/o/oauth2/v2/auth'),
  GOOGLE_BUSINESS_ACCOUNTS_API_BASE: z.url().default('https://mybusinessaccountmanagement.googleapis.com'),
  GOOGLE_BUSINESS_INFO_API_BASE: z.url().default('https://mybusinessbusinessinformation.googleapis.com'),
  /** Every background job retries after this many seconds, without backoff (tests; unset in production). */
  JOB_RETRY_DELAY_SECONDS: z.coerce.number().int().min(0).max(3600).optional(),
  /** Answers that carry a field their route's contract does not name fail with 500 instead of dropping it (tests). */
  STRICT_ANSWERS: bool.default(false),
  /** When set, `/metrics` wants it as a bearer token. */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /** Where uploaded files live: `disk` (DATA_DIR/uploads) or `s3` (any S3-compatible store; several nodes). */
  STORAGE: z.enum(['disk', 's3']).default('disk'),
  S3_BUCKET: z.string().min(3).optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  /** An S3-compatible server other than AWS (MinIO, R2, …); addressed by path (`endpoint/bucket/key`). */
  S3_ENDPOINT: z.url().optional(),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** A folder inside the bucket, e.g. `switchboard/`. */
  S3_PREFIX: z.string().default(''),
  /** New businesses may sign up from the login page; off: only an administrator adds them. */
  SIGNUP_ENABLED: bool.default(true),
  /** Sign-ups allowed from one IP address per hour. */
  SIGNUP_MAX_PER_IP: z.coerce.number().int().positive().default(10),
  /** A sign-up form sent back sooner than this after it was opened is a bot's. */
  SIGNUP_MIN_SECONDS: z.coerce.number().min(0).default(3),
  /** Where a sign-up's IP address is looked up: `local` (data shipped with the server) or `off`. */
  IP_LOOKUP: z.enum(['local', 'off']).default('local'),
  TRIAL_DAYS: z.coerce.number().int().min(1).max(365).default(14),
  /** Messages a business may send a day on each plan. */
  MESSAGE_LIMIT_TRIAL: z.coerce.number().int().min(0).default(500),
  MESSAGE_LIMIT_MONTHLY: z.coerce.number().int().min(0).default(2000),
  MESSAGE_LIMIT_ANNUAL: z.coerce.number().int().min(0).default(2000),
  /** Stripe Billing prices of the Switchboard plans (`price_…`); without them plans are bought in the sandbox. */
  STRIPE_PRICE_MONTHLY: z.string().min(1).optional(),
  STRIPE_PRICE_ANNUAL: z.string().min(1).optional(),
  /** The signing secret of the Billing webhook endpoint, when it is not the Connect one. */
  STRIPE_BILLING_WEBHOOK_SECRET: z.string().min(1).optional(),
  /** Twilio account and sender number that text sign-up codes (mobile verification). */
  VERIFY_SMS_ACCOUNT_SID: z.string().min(1).optional(),
  VERIFY_SMS_AUTH_TOKEN: z.string().min(1).optional(),
  VERIFY_SMS_FROM: z.string().min(1).optional(),
  /**
   * The platform's own Twilio account: owners buy numbers through it (one subaccount per business) without an
   * account of their own. Its API is TWILIO_API_BASE.
   */
  TWILIO_PLATFORM_ACCOUNT_SID: z
    .string()
    .regex(/^AC[0-9a-fA-F]{32}$/, 'an Account SID: AC followed by 32 hex characters')
    .optional(),
  TWILIO_PLATFORM_AUTH_TOKEN: z.string().min(1).optional(),
  /** Business ids (comma-separated) an administrator may mark regulated (spec §6). */
  REGULATED_BUSINESS_IDS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((id) => id.trim().toLowerCase())
        .filter(Boolean),
    ),
  SMTP_ENABLED: bool.default(true),
  SMTP_HOST: z.string().min(1).default('127.0.0.1'),
  SMTP_PORT: z.coerce.number().int().min(0).max(65535).default(2525),
  SMTP_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(25 * 1024 * 1024),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^/\s]+/, 'must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z.string().trim().min(3).max(320).optional(),
  INBOUND_EMAIL_DOMAIN: z
    .string()
    .regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,63}$/i, 'must be a domain name')
    .default('inbound.switchboard.local'),
});

export type StorageSettings =
  | { kind: 'disk' }
  | {
      kind: 's3';
      bucket: string;
      region: string;
      endpoint?: string;
      accessKeyId?: string;
      secretAccessKey?: string;
      prefix: string;
    };

export type AiConfig = {
  baseUrl?: string | undefined;
  apiKey?: string | undefined;
  model: string;
  embeddingsModel?: string | undefined;
  timeoutMs: number;
  /** Private origins the assistant may still fetch (websites, tools): loopback test servers only. */
  fetchTrustedOrigins?: string[];
};

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  redisUrl?: string;
  publicUrl: string;
  jwtSecret: Uint8Array;
  encryptionKey: Buffer;
  /** The key variables that were not set, whose values were generated into DATA_DIR/secrets.json. */
  generatedSecrets: ('JWT_SECRET' | 'ENCRYPTION_KEY')[];
  sandbox: boolean;
  /**
   * The reverse proxies whose X-Forwarded-For is believed; empty (the default) believes none, so the
   * client's address is the connection's and per-IP limits cannot be dodged with a header.
   */
  trustProxy: string[];
  sessionDays: number;
  /**
   * A customer who writes again within this many days of their closed enquiry's last message reopens it;
   * later, their message opens a new enquiry.
   */
  reopenWindowDays: number;
  /**
   * A website chat visitor with no chat open for this many minutes gets staff replies by SMS (to the phone
   * they gave), through the location's SMS channel.
   */
  widgetSmsAfterMinutes: number;
  tokenRenewAfterSeconds: number;
  login: { maxPerIp: number; maxPerEmail: number; windowSeconds: number };
  uploadMaxBytes: number;
  imageMaxBytes: number;
  /** How long reading one uploaded file, fetched page or image may take (it runs in an isolated worker). */
  readTimeoutMs: number;
  bodyLimitBytes: number;
  marketingScriptUrl?: string;
  webDist: string;
  /** The built website chat widget (loader and chat frame). */
  widgetDist: string;
  logLevel: z.infer<typeof EnvSchema>['LOG_LEVEL'];
  /** Tests: an answer with a field its contract does not name is an error, not silently trimmed. */
  strictAnswers: boolean;
  /** Where uploaded files are kept. */
  storage: StorageSettings;
  /** Bearer token `/metrics` asks for; unset: open (keep it off the public internet at the proxy). */
  metricsToken?: string;
  /** Provider API endpoints (tests point them at fake servers on loopback) and how long one call may take. */
  /** Background jobs: the retry delay that replaces each definition's own, when set. */
  jobs: { retryDelaySeconds?: number };
  providers: {
    twilioApiBase: string;
    twilioMessagingApiBase: string;
    graphApiBase: string;
    rbmApiBase: string;
    googleTokenUrl: string;
    timeoutMs: number;
  };
  /** The assistant's chat model (OpenAI-compatible); none when `baseUrl` is unset: the built-in assistant answers. */
  ai: AiConfig;
  /** Invoice payments through Stripe Connect; none configured: the sandbox payment page (sandbox mode) or none. */
  payments: {
    stripeSecretKey?: string;
    webhookSecret?: string;
    apiBase: string;
    applicationFeeBps: number;
    /** How often the pay page may start a card payment: per pay link and per client address, per window. */
    checkoutLimits: { perLink: number; perIp: number; windowSeconds: number };
  };
  /** Google Business Profile: the OAuth client (none: owners paste review links) and the APIs' addresses. */
  googleBusiness: {
    clientId?: string;
    clientSecret?: string;
    authUrl: string;
    tokenUrl: string;
    accountsApiBase: string;
    infoApiBase: string;
  };
  /** Call transcription: an OpenAI-compatible `/v1/audio/transcriptions` endpoint; none when unset. */
  transcription: { provider: 'openai' | 'twilio' | null; baseUrl?: string; apiKey?: string; model: string };
  /** Sign-up from the login page: its limits and the IP lookup. */
  signup: { enabled: boolean; maxPerIp: number; minSeconds: number; ipLookup: 'local' | 'off' };
  /** The plans: trial length, daily message limits, and their Stripe Billing prices. */
  plans: {
    trialDays: number;
    messageLimit: Record<'trial' | 'monthly' | 'annual', number>;
    stripePrice: { monthly?: string; annual?: string };
    webhookSecret?: string;
  };
  /** The platform Twilio account owners buy numbers through; none: owners connect their own accounts. */
  twilioPlatform?: { accountSid: string; authToken: string };
  /** Texts sign-up codes; none configured: sandbox mode shows the code on screen, otherwise none is sent. */
  verifySms: { accountSid?: string; authToken?: string; from?: string };
  /** Where the web app asks for reports; undefined: this server's own. */
  analyticsUrl?: string;
  /** Web Push: the configured VAPID keys (else generated into the data dir) and who push services may contact. */
  push: { publicKey?: string; privateKey?: string; subject: string; trustedOrigins: string[] };
  /** Business ids an administrator may mark regulated. */
  regulatedBusinessIds: string[];
  /** Email: the inbound SMTP server, the domain of every location's address, and the outbound relay. */
  email: {
    smtpEnabled: boolean;
    smtpHost: string;
    /** 0 picks a free port (tests); the bound one is `app.smtp.port`. */
    smtpPort: number;
    maxBytes: number;
    inboundDomain: string;
    /** Where outbound email is relayed (nodemailer URL); without it email goes through the sandbox. */
    smtpUrl?: string;
    /** The sender of email to the product's own users (sign-in help). */
    mailFrom: string;
  };
};

export class ConfigError extends Error {}

/** Reads and validates the environment once; throws a ConfigError naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (e.STORAGE === 's3' && !e.S3_BUCKET) {
    throw new ConfigError(
      'Invalid configuration:\n  S3_BUCKET: STORAGE=s3 needs the bucket to keep uploads in',
    );
  }
  if (Boolean(e.S3_ACCESS_KEY_ID) !== Boolean(e.S3_SECRET_ACCESS_KEY)) {
    throw new ConfigError(
      "Invalid configuration:\n  S3_ACCESS_KEY_ID: set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither (to use the machine's AWS credentials)",
    );
  }
  if (e.STRIPE_SECRET_KEY && !e.STRIPE_WEBHOOK_SECRET) {
    throw new ConfigError(
      'Invalid configuration:\n  STRIPE_WEBHOOK_SECRET: STRIPE_SECRET_KEY needs the webhook signing secret (whsec_…) to believe payment events',
    );
  }
  const smsParts = [e.VERIFY_SMS_ACCOUNT_SID, e.VERIFY_SMS_AUTH_TOKEN, e.VERIFY_SMS_FROM].filter(
    Boolean,
  ).length;
  if (smsParts !== 0 && smsParts !== 3) {
    throw new ConfigError(
      'Invalid configuration:\n  VERIFY_SMS_ACCOUNT_SID: set VERIFY_SMS_ACCOUNT_SID, VERIFY_SMS_AUTH_TOKEN and VERIFY_SMS_FROM together, or none',
    );
  }
  if (Boolean(e.TWILIO_PLATFORM_ACCOUNT_SID) !== Boolean(e.TWILIO_PLATFORM_AUTH_TOKEN)) {
    throw new ConfigError(
      'Invalid configuration:\n  TWILIO_PLATFORM_ACCOUNT_SID: set both TWILIO_PLATFORM_ACCOUNT_SID and TWILIO_PLATFORM_AUTH_TOKEN, or neither',
    );
  }
  if ((e.STRIPE_PRICE_MONTHLY || e.STRIPE_PRICE_ANNUAL) && !e.STRIPE_SECRET_KEY) {
    throw new ConfigError(
      'Invalid configuration:\n  STRIPE_PRICE_MONTHLY: plan prices need STRIPE_SECRET_KEY (the platform Stripe account)',
    );
  }
  if (Boolean(e.VAPID_PUBLIC_KEY) !== Boolean(e.VAPID_PRIVATE_KEY)) {
    throw new ConfigError(
      'Invalid configuration:\n  VAPID_PUBLIC_KEY: set both VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY, or neither',
    );
  }
  if (Boolean(e.GOOGLE_BUSINESS_CLIENT_ID) !== Boolean(e.GOOGLE_BUSINESS_CLIENT_SECRET)) {
    throw new ConfigError(
      'Invalid configuration:\n  GOOGLE_BUSINESS_CLIENT_ID: set both GOOGLE_BUSINESS_CLIENT_ID and GOOGLE_BUSINESS_CLIENT_SECRET, or neither',
    );
  }
  const dataDir = resolve(e.DATA_DIR);
  const secrets = e.JWT_SECRET && e.ENCRYPTION_KEY ? undefined : localSecrets(dataDir);
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    publicUrl: (e.PUBLIC_URL ?? `http://${e.HOST}:${e.PORT}`).replace(/\/+$/, ''),
    jwtSecret: new TextEncoder().encode(e.JWT_SECRET ?? secrets!.jwt_secret),
    encryptionKey: Buffer.from(e.ENCRYPTION_KEY ?? secrets!.encryption_key, 'hex'),
    generatedSecrets: [
      ...(e.JWT_SECRET ? [] : (['JWT_SECRET'] as const)),
      ...(e.ENCRYPTION_KEY ? [] : (['ENCRYPTION_KEY'] as const)),
    ],
    sandbox: e.SANDBOX_MODE,
    trustProxy: e.TRUST_PROXY,
    sessionDays: e.SESSION_DAYS,
    reopenWindowDays: e.REOPEN_WINDOW_DAYS,
    widgetSmsAfterMinutes: e.WIDGET_SMS_AFTER_MINUTES,
    tokenRenewAfterSeconds: e.TOKEN_RENEW_AFTER_SECONDS,
    login: {
      maxPerIp: e.LOGIN_MAX_PER_IP,
      maxPerEmail: e.LOGIN_MAX_PER_EMAIL,
      windowSeconds: e.LOGIN_WINDOW_SECONDS,
    },
    uploadMaxBytes: e.UPLOAD_MAX_BYTES,
    imageMaxBytes: e.IMAGE_MAX_BYTES,
    readTimeoutMs: e.READ_TIMEOUT_MS,
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    marketingScriptUrl: e.MARKETING_SCRIPT_URL,
    webDist: resolve(e.WEB_DIST ?? new URL('../../web/dist', import.meta.url).pathname),
    widgetDist: resolve(e.WIDGET_DIST ?? new URL('../../widget/dist', import.meta.url).pathname),
    logLevel: e.LOG_LEVEL,
    strictAnswers: e.STRICT_ANSWERS,
    metricsToken: e.METRICS_TOKEN,
    storage:
      e.STORAGE === 's3'
        ? {
            kind: 's3',
            bucket: e.S3_BUCKET!,
            region: e.S3_REGION,
            endpoint: e.S3_ENDPOINT,
            accessKeyId: e.S3_ACCESS_KEY_ID,
            secretAccessKey: e.S3_SECRET_ACCESS_KEY,
            prefix: e.S3_PREFIX,
          }
        : { kind: 'disk' },
    jobs: { retryDelaySeconds: e.JOB_RETRY_DELAY_SECONDS },
    signup: {
      enabled: e.SIGNUP_ENABLED,
      maxPerIp: e.SIGNUP_MAX_PER_IP,
      minSeconds: e.SIGNUP_MIN_SECONDS,
      ipLookup: e.IP_LOOKUP,
    },
    plans: {
      trialDays: e.TRIAL_DAYS,
      messageLimit: {
        trial: e.MESSAGE_LIMIT_TRIAL,
        monthly: e.MESSAGE_LIMIT_MONTHLY,
        annual: e.MESSAGE_LIMIT_ANNUAL,
      },
      stripePrice: { monthly: e.STRIPE_PRICE_MONTHLY, annual: e.STRIPE_PRICE_ANNUAL },
      webhookSecret: e.STRIPE_BILLING_WEBHOOK_SECRET,
    },
    verifySms: {
      accountSid: e.VERIFY_SMS_ACCOUNT_SID,
      authToken: e.VERIFY_SMS_AUTH_TOKEN,
      from: e.VERIFY_SMS_FROM,
    },
    twilioPlatform:
      e.TWILIO_PLATFORM_ACCOUNT_SID && e.TWILIO_PLATFORM_AUTH_TOKEN
        ? { accountSid: e.TWILIO_PLATFORM_ACCOUNT_SID, authToken: e.TWILIO_PLATFORM_AUTH_TOKEN }
        : undefined,
    regulatedBusinessIds: e.REGULATED_BUSINESS_IDS,
    providers: {
      twilioApiBase: e.TWILIO_API_BASE.replace(/\/+$/, ''),
      twilioMessagingApiBase: e.TWILIO_MESSAGING_API_BASE.replace(/\/+$/, ''),
      graphApiBase: e.GRAPH_API_BASE.replace(/\/+$/, ''),
      rbmApiBase: e.RBM_API_BASE.replace(/\/+$/, ''),
      googleTokenUrl: e.GOOGLE_OAUTH_TOKEN_URL,
      timeoutMs: e.PROVIDER_TIMEOUT_MS,
    },
    analyticsUrl: e.ANALYTICS_URL?.replace(/\/+$/, ''),
    push: {
      publicKey: e.VAPID_PUBLIC_KEY,
      privateKey: e.VAPID_PRIVATE_KEY,
      subject:
        e.VAPID_SUBJECT ??
        (e.PUBLIC_URL?.startsWith('https://')
          ? e.PUBLIC_URL.replace(/\/+$/, '')
          : 'mailto:push@switchboard.invalid'),
      trustedOrigins: (e.PUSH_ALLOW_ORIGINS ?? '')
        .split(',')
        .map((o) => o.trim().replace(/\/+$/, ''))
        .filter(Boolean),
    },
    ai: {
      baseUrl: e.AI_BASE_URL?.replace(/\/+$/, ''),
      apiKey: e.AI_API_KEY,
      model: e.AI_MODEL,
      embeddingsModel: e.AI_EMBEDDINGS_MODEL,
      timeoutMs: e.AI_TIMEOUT_MS,
      fetchTrustedOrigins: (e.AI_FETCH_ALLOW_ORIGINS ?? '')
        .split(',')
        .map((o) => o.trim().replace(/\/+$/, ''))
        .filter(Boolean),
    },
    payments: {
      stripeSecretKey: e.STRIPE_SECRET_KEY,
      webhookSecret: e.STRIPE_WEBHOOK_SECRET,
      apiBase: e.STRIPE_API_BASE.replace(/\/+$/, ''),
      applicationFeeBps: e.STRIPE_APPLICATION_FEE_BPS,
      checkoutLimits: {
        perLink: e.CHECKOUT_MAX_PER_LINK,
        perIp: e.CHECKOUT_MAX_PER_IP,
        windowSeconds: e.CHECKOUT_WINDOW_SECONDS,
      },
    },
    googleBusiness: {
      clientId: e.GOOGLE_BUSINESS_CLIENT_ID,
      clientSecret: e.GOOGLE_BUSINESS_CLIENT_SECRET,
      authUrl: e.GOOGLE_OAUTH_AUTH_URL,
      tokenUrl: e.GOOGLE_OAUTH_TOKEN_URL,
      accountsApiBase: e.GOOGLE_BUSINESS_ACCOUNTS_API_BASE.replace(/\/+$/, ''),
      infoApiBase: e.GOOGLE_BUSINESS_INFO_API_BASE.replace(/\/+$/, ''),
    },
    transcription: {
      provider: e.TRANSCRIBE_PROVIDER ?? (e.TRANSCRIBE_BASE_URL ? 'openai' : null),
      baseUrl: e.TRANSCRIBE_BASE_URL?.replace(/\/+$/, ''),
      apiKey: e.TRANSCRIBE_API_KEY,
      model: e.TRANSCRIBE_MODEL,
    },
    email: {
      smtpEnabled: e.SMTP_ENABLED,
      smtpHost: e.SMTP_HOST,
      smtpPort: e.SMTP_PORT,
      maxBytes: e.SMTP_MAX_BYTES,
      inboundDomain: e.INBOUND_EMAIL_DOMAIN.toLowerCase(),
      smtpUrl: e.SMTP_URL,
      mailFrom: e.MAIL_FROM ?? `Switchboard <no-reply@${e.INBOUND_EMAIL_DOMAIN.toLowerCase()}>`,
    },
  };
}

/**
 * Secrets not given in the environment are generated once into the data dir, so a one-command start needs
 * no set-up and a restart keeps sessions and encrypted credentials readable.
 */
function localSecrets(dataDir: string): { jwt_secret: string; encryption_key: string } {
  const file = join(dataDir, 'secrets.json');
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8'));
  mkdirSync(dataDir, { recursive: true });
  const secrets = {
    jwt_secret: randomBytes(48).toString('hex'),
    encryption_key: randomBytes(32).toString('hex'),
  };
  writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}
