import { INVOICE_STATUSES } from '@switchboard/shared';
import { sql } from 'drizzle-orm';
import {
  boolean,
  customType,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { uuidv7 } from 'uuidv7';

const id = () =>
  uuid('id')
    .primaryKey()
    .$defaultFn(() => uuidv7());
/** A text search document; only the database reads it (search conditions), the app never selects it. */
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });
const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const stamps = () => ({
  created_at: ts('created_at').notNull().defaultNow(),
  updated_at: ts('updated_at')
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
});

export const users = pgTable(
  'users',
  {
    id: id(),
    email: text('email').notNull(),
    password_hash: text('password_hash').notNull(),
    full_name: text('full_name').notNull().default(''),
    avatar: text('avatar'),
    super_admin: boolean('super_admin').notNull().default(false),
    enable_notifications: boolean('enable_notifications').notNull().default(true),
    enable_enquiry_notification: boolean('enable_enquiry_notification').notNull().default(true),
    enable_message_notification: boolean('enable_message_notification').notNull().default(true),
    ringtone_enquiry: text('ringtone_enquiry'),
    ringtone_message: text('ringtone_message'),
    /** How this person's browser rings for a phone call: one of the shipped call ringtones (null: 'classic'). */
    ringtone_call: text('ringtone_call'),
    /**
     * Owners: an email listing enquiries no one has answered for this many minutes (null: no such email), and
     * when the last one went.
     */
    digest_minutes: integer('digest_minutes'),
    digest_sent_at: ts('digest_sent_at'),
    /** Enter sends a reply (Shift+Enter a new line); otherwise Ctrl/⌘+Enter sends. */
    send_on_enter: boolean('send_on_enter').notNull().default(false),
    /** Replying to an unassigned enquiry assigns it to the person replying. */
    assign_on_reply: boolean('assign_on_reply').notNull().default(true),
    /** Bumped on password change: every token issued before carries an older version and is refused. */
    token_version: integer('token_version').notNull().default(0),
    /** Per-user key and IV handed to the browser at login (cookies `key`, `iv`). */
    client_key: text('client_key').notNull(),
    client_iv: text('client_iv').notNull(),
    /** The person's mobile (E.164), given at sign-up; verified by a texted code. */
    mobile: text('mobile'),
    mobile_verified_at: ts('mobile_verified_at'),
    ...stamps(),
  },
  (t) => [uniqueIndex('users_email_key').on(sql`lower(${t.email})`)],
);

export const sessions = pgTable(
  'sessions',
  {
    id: id(),
    user_id: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    token_version: integer('token_version').notNull(),
    expires_at: ts('expires_at').notNull(),
    revoked_at: ts('revoked_at'),
    ip: text('ip'),
    user_agent: text('user_agent'),
    ...stamps(),
  },
  (t) => [index('sessions_user_idx').on(t.user_id)],
);

/**
 * A browser's Web Push subscription for a person (one per browser profile: its endpoint is unique). Removed when
 * the push service answers that it is gone (404/410), or when the person signs out of that browser.
 */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: id(),
    user_id: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    user_agent: text('user_agent'),
    last_sent_at: ts('last_sent_at'),
    ...stamps(),
  },
  (t) => [
    uniqueIndex('push_subscriptions_endpoint_key').on(t.endpoint),
    index('push_subscriptions_user_idx').on(t.user_id),
  ],
);

export const businesses = pgTable('businesses', {
  id: id(),
  name: text('name').notNull(),
  owner_user_id: uuid('owner_user_id').references(() => users.id, { onDelete: 'set null' }),
  timezone: text('timezone').notNull().default('Australia/Melbourne'),
  website: text('website'),
  /**
   * Other origins of the business's own websites (`https://shop.example.com`), besides `website`'s: where a
   * web form may send the visitor back to after a submission (`_redirect`). Nowhere else.
   */
  site_origins: jsonb('site_origins').$type<string[]>().notNull().default([]),
  industry: text('industry'),
  image: text('image'),
  plan: text('plan', { enum: ['trial', 'monthly', 'annual'] })
    .notNull()
    .default('trial'),
  trial_end_date: ts('trial_end_date'),
  subscription_past_due: boolean('subscription_past_due').notNull().default(false),
  next_invoice_attempt: ts('next_invoice_attempt'),
  message_limit: integer('message_limit').notNull().default(500),
  messages_sent_today: integer('messages_sent_today').notNull().default(0),
  /** The business-local day `messages_sent_today` counts; a send on a later day starts again at 0. */
  messages_count_day: date('messages_count_day', { mode: 'string' }),
  verified: boolean('verified').notNull().default(false),
  verified_at: ts('verified_at'),
  regulated: boolean('regulated').notNull().default(false),
  /** ISO 3166-1 alpha-2 country the business signed up from (guessed from the browser, editable). */
  country: text('country'),
  /** Where the sign-up came from: the IP lookup and the tracking values (`utm_*`, `gclid`, ...). */
  signup_meta: jsonb('signup_meta').$type<Record<string, unknown>>(),
  /** Features a Switchboard administrator turned on or off for this business (flag name → on). */
  feature_flags: jsonb('feature_flags').$type<Record<string, boolean>>().notNull().default({}),
  stripe_customer_id: text('stripe_customer_id'),
  /** The Switchboard subscription (Stripe Billing) as its webhooks last told it. */
  stripe_subscription_id: text('stripe_subscription_id'),
  stripe_subscription_status: text('stripe_subscription_status'),
  /** When Stripe created the last subscription event applied here: an older one arriving later is ignored. */
  stripe_subscription_event_at: timestamp('stripe_subscription_event_at', { withTimezone: true }),
  subscription_renews_at: ts('subscription_renews_at'),
  /** Set when the subscription is cancelled to end at the period's end (or ended). */
  subscription_ends_at: ts('subscription_ends_at'),
  /** The promotion code the subscription was bought with and its discount in words, as the owner chose it. */
  subscription_promotion: jsonb('subscription_promotion').$type<{ code: string; description: string }>(),
  /**
   * The business's referral link's code (`/signup?ref=bayside-physio-k2m9qa`): its name and a random tail. New
   * businesses are given one from their name; any other row gets a random one from the default.
   */
  referral_code: text('referral_code')
    .unique()
    .default(sql`substr(replace(gen_random_uuid()::text, '-', ''), 1, 12)`),
  stripe_account_id: text('stripe_account_id'),
  /** The connected account's state as Stripe last told it (settings show it; `account.updated` refreshes it). */
  stripe_details_submitted: boolean('stripe_details_submitted').notNull().default(false),
  stripe_charges_enabled: boolean('stripe_charges_enabled').notNull().default(false),
  stripe_payouts_enabled: boolean('stripe_payouts_enabled').notNull().default(false),
  /** The Google Business Profile connection (its OAuth refresh token), sealed with the app's key. */
  google_business_token: text('google_business_token'),
  /** Secret tokens for the inbound web-form and contact-form URLs. */
  web_form_token: text('web_form_token'),
  contact_form_token: text('contact_form_token'),
  /** When the owner put the set-up checklist away (null: it shows until every item is done). */
  setup_dismissed_at: ts('setup_dismissed_at'),
  ...stamps(),
});

export const businessMembers = pgTable(
  'business_members',
  {
    business_id: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    user_id: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['owner', 'staff'] })
      .notNull()
      .default('staff'),
    /** False: a staff member works only at the locations listed for them in `location_members`. */
    all_locations: boolean('all_locations').notNull().default(true),
    ...stamps(),
  },
  (t) => [
    primaryKey({ columns: [t.business_id, t.user_id] }),
    index('business_members_user_idx').on(t.user_id),
  ],
);

export const locations = pgTable(
  'locations',
  {
    id: id(),
    business_id: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    name: text('name'),
    address: text('address'),
    precedence: integer('precedence').notNull().default(0),
    timezone: text('timezone'),
    phone_number: text('phone_number'),
    email_address: text('email_address'),
    google_place_id: text('google_place_id'),
    review_message: text('review_message'),
    /** Where customers leave a review (the Google Business Profile's review link, or one the owner pasted). */
    review_link: text('review_link'),
    ai_auto_reply: text('ai_auto_reply').notNull().default('off'),
    /** How the assistant answers here (`AiAutoReplyOptions`); missing keys use the defaults. */
    ai_options: jsonb('ai_options').$type<Record<string, unknown>>(),
    review_reminders: jsonb('review_reminders').$type<Record<string, unknown>>(),
    widget_settings: jsonb('widget_settings').$type<Record<string, unknown>>(),
    /** The location's limits on new chats and form posts (`IntakeLimits`); missing keys use the defaults. */
    intake_limits: jsonb('intake_limits').$type<Record<string, unknown>>(),
    /** The location's weekly opening hours (`OpeningHours`); null: always open. */
    opening_hours: jsonb('opening_hours').$type<Record<string, { open: string; close: string }[]>>(),
    /** Days the location is closed whatever its hours say (`Holiday`: 'YYYY-MM-DD' in its zone and a name). */
    holidays: jsonb('holidays')
      .$type<{ date: string; name: string | null }[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    /** How soon the location usually replies (`ReplyTime`), as the website chat tells visitors. */
    reply_time: text('reply_time'),
    /** Texted to a caller nobody answered (template placeholders filled in); null: no text. */
    missed_call_text: text('missed_call_text'),
    /** A card surcharge added to invoices paid here, as a separate disclosed line (basis points: 150 = 1.5%). */
    card_surcharge_enabled: boolean('card_surcharge_enabled').notNull().default(false),
    card_surcharge_bps: integer('card_surcharge_bps').notNull().default(150),
    assigned_count_open: integer('assigned_count_open').notNull().default(0),
    assigned_count_closed: integer('assigned_count_closed').notNull().default(0),
    unassigned_count_open: integer('unassigned_count_open').notNull().default(0),
    unassigned_count_closed: integer('unassigned_count_closed').notNull().default(0),
    /**
     * The secret part of the location's inbound email address (`loc-<token>@INBOUND_EMAIL_DOMAIN`): random,
     * so addresses cannot be guessed from ids, and stored, so an address never changes under its users.
     */
    inbound_email_token: text('inbound_email_token')
      .notNull()
      .default(sql`substr(md5(gen_random_uuid()::text), 1, 16)`),
    ...stamps(),
  },
  (t) => [
    index('locations_business_idx').on(t.business_id, t.precedence),
    uniqueIndex('locations_inbound_email_token_key').on(t.inbound_email_token),
  ],
);

/** The locations a staff member whose membership is not for all locations works at. */
export const locationMembers = pgTable(
  'location_members',
  {
    business_id: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    location_id: uuid('location_id')
      .notNull()
      .references(() => locations.id, { onDelete: 'cascade' }),
    user_id: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.location_id, t.user_id] }),
    index('location_members_user_idx').on(t.business_id, t.user_id),
  ],
);

export const businessPhones = pgTable(
  'business_phones',
  {
    id: id(),
    business_id: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    location_id: uuid('location_id').references(() => locations.id, { onDelete: 'set null' }),
    label: text('label'),
    phone: text('phone').notNull(),
    ...stamps(),
  },
  (t) => [index('business_phones_business_idx').on(t.business_id, t.created_at)],
);

export const businessEmails = pgTable(
  'business_emails',
  {
    id: id(),
    business_id: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    location_id: uuid('location_id').references(() => locations.id, { onDelete: 'set null' }),
    label: text('label'),
    email: text('email').notNull(),
    ...stamps(),
  },
  (t) => [index('business_emails_business_idx').on(t.business_id, t.created_at)],
);

export const uploads = pgTable(
  'uploads',
  {
    id: id(),
    business_id: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    user_id: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    content_type: text('content_type').notNull(),
    size: integer('size').notNull(),
    storage_key: text('storage_key').notNull(),
    ...stamps(),
  },
  (t) => [index('uploads_business_idx').on(t.business_id)],
);

export const customers = pgTable(
  'customers',
  {
    id: id(),
    business_id: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    name: text('name'),
    first_name: text('first_name'),
    phone: text('phone'),
    email: text('email'),
    /** Per-channel ids the providers know the customer by, e.g. { facebook: PSID, widget: visitor id }. */
    external_ids: jsonb('external_ids').$type<Record<string, string>>().notNull().default({}),
    /** The channel id the customer was first known by (`facebook:PSID`): unique per business. */
    external_key: text('external_key'),
    sms_opted_out: boolean('sms_opted_out').notNull().default(false),
    /** The business's labels on the person (VIP, new patient…), as against the labels on one enquiry. */
    labels: uuid('labels').array().notNull().default(sql`'{}'::uuid[]`),
    ...stamps(),
  },
  (t) => [
    // One customer per business and contact: concurrent first messages from one number find one customer.
    uniqueIndex('customers_business_phone_key').on(t.business_id, t.phone).where(sql`${t.phone} is not null`),
    uniqueIndex('customers_business_email_key')
      .on(t.business_id, sql`lower(${t.email})`)
      .where(sql`${t.phone} is null and ${t.external_key} is null and ${t.email} is not null`),
    uniqueIndex('customers_business_external_key')
      .on(t.business_id, t.external_key)
      .where(sql`${t.external_key} is not null`),
    index('customers_business_email_idx').on(t.business_id, sql`lower(${t.email})`),
    // Inbox search matches any part of a name, email or phone (ILIKE '%…%'), within one business.
    index('customers_search_name_idx').using('gin', t.business_id, t.name.op('gin_trgm_ops')),
    index('customers_search_email_idx').using('gin', t.business_id, t.email.op('gin_trgm_ops')),
    index('customers_search_phone_idx').using('gin', t.business_id, t.phone.op('gin_trgm_ops')),
  ],
);

export type Attachment = { id: string; name: string; content_type: string; size: number; url: string };
export type MessageMeta = { subject?: string; from?: string; to?: string; [key: string]: unknown };

export const enquiries = pgTable(
  'enquiries',
  {
    id: id(),
    business_id: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    location_id: uuid('location_id')
      .notNull()
      .references(() => locations.id, { onDelete: 'cascade' }),
    customer_id: uuid('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    channel: text('channel').notNull(),
    title: text('title'),
    status: text('status', { enum: ['open', 'closed'] })
      .notNull()
      .default('open'),
    assigned_to: uuid('assigned_to').references(() => users.id, { onDelete: 'set null' }),
    seen: boolean('seen').notNull().default(false),
    source: text('source'),
    medium: text('medium'),
    campaign: text('campaign'),
    last_message_preview: text('last_message_preview'),
    last_message_at: ts('last_message_at').notNull().defaultNow(),
    /**
     * Hidden from the open list until then; still open, and in the location's counters, which every read of the Open
     * count makes up for (`snoozedOpen`). A job wakes it on time.
     */
    snoozed_until: ts('snoozed_until'),
    /** The business's labels put on it (ids of `labels`), for sorting work and filtering the list. */
    labels: uuid('labels').array().notNull().default(sql`'{}'::uuid[]`),
    /**
     * When the assistant handed this enquiry to a person (not sure, or asked for one): it stays silent here and
     * the enquiry shows "needs a person" until staff hand it back (null again).
     */
    ai_handoff_at: ts('ai_handoff_at'),
    /** How many replies the assistant has sent in this enquiry (the location's "at most N" counts these). */
    ai_replies: integer('ai_replies').notNull().default(0),
    meta: jsonb('meta').$type<Record<string, unknown>>().notNull().default({}),
    /** The customer's first message no one has answered yet (null: nothing waits for an answer). */
    awaiting_since: ts('awaiting_since'),
    /** When the enquiry was opened, or last reopened: its resolution time counts from here. */
    cycle_started_at: ts('cycle_started_at').notNull().defaultNow(),
    ...stamps(),
  },
  (t) => [
    // Reports count enquiries by when they came in, and those the assistant handed to a person.
    index('enquiries_created_idx').on(t.business_id, t.created_at),
    index('enquiries_handoff_idx')
      .on(t.business_id, t.ai_handoff_at)
      .where(sql`${t.ai_handoff_at} is not null`),
    // Open enquiries waiting for an answer, oldest first: the owners' unanswered-enquiries email reads these.
    index('enquiries_awaiting_idx')
      .on(t.business_id, t.awaiting_since)
      .where(sql`${t.status} = 'open' and ${t.awaiting_since} is not null`),
    // The inbox reads newest activity first within one location and status; the page stops the index scan.
    // NULLS FIRST matches a plain ORDER BY … DESC, without which PostgreSQL cannot read the index in order.
    index('enquiries_inbox_idx').on(
      t.business_id,
      t.location_id,
      t.status,
      t.last_message_at.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('enquiries_customer_idx').on(t.customer_id, t.channel, t.location_id),
    index('enquiries_assigned_idx').on(
      t.business_id,
      t.location_id,
      t.status,
      t.assigned_to,
      t.last_message_at.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('enquiries_search_title_idx').using('gin', t.business_id, t.title.op('gin_trgm_ops')),
    index('enquiries_labels_idx').using('gin', t.labels),
    // The open enquiries asleep now, left out of the Open count as they are of the Open list: few rows.
    index('enquiries_snoozed_idx')
      .on(t.location_id, t.snoozed_until)
      .where(sql`${t.status} = 'open' and ${t.snoozed_until} is not null`),
  ],
);

/**
 * What happened in an enquiry, recorded when it happened so reports never rescan messages: a `response` (the
 * first reply after the customer wrote: from `started_at`, their message, to `ended_at`, the reply) or a
 * `resolution` (opened or reopened at `started_at`, closed at `ended_at`). Seconds are kept raw and within
 * the location's opening hours; `user_id` is who replied or closed; `by_assistant` a reply the assistant sent.
 */
export const enquiryFacts = pgTable(
  'enquiry_facts',
  {
    id: id(),
    business_id: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    location_id: uuid('location_id')
      .notNull()
      .references(() => locations.id, { onDelete: 'cascade' }),
    enquiry_id: uuid('enquiry_id')
      .notNull()
      .references(() => enquiries.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['response', 'resolution'] }).notNull(),
    channel: text('channel').notNull(),
    started_at: ts('started_at').notNull(),
    ended_at: ts('ended_at').notNull(),
    seconds: integer('seconds').notNull(),
    business_seconds: integer('business_seconds').notNull(),
    user_id: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    by_assistant: boolean('by_assistant').notNull().default(false),
    created_at: ts('created_at').notNull().defaultNow(),
  },
  // Reports read one business's facts of a period (both kinds at once): a range on ended_at.
  (t) => [index('enquiry_facts_period_idx').on(t.business_id, t.ended_at)],
);

/**
 * The words of every message of an enquiry, for the inbox search: one document per enquiry, kept beside the
 * enquiry so list reads stay narrow. A trigger on messages adds each new message's words (migration
 * 0007_enquiry_search_trigger).
 */
export const enquirySearch = pgTable(
  'enquiry_search',
  {
    enquiry_id: uuid('enquiry_id')
      .primaryKey()
      .references(() => enquiries.id, { onDelete: 'cascade' }),
    business_id: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    document: tsvector('document').notNull(),
  },
  (t) => [index('enquiry_search_document_idx').using('gin', t.business_id, t.document)],
);

export const messages = pgTable(
  'messages',
  {
    id: id(),
    // A message's business and customer are its enquiry's, copied for scoping and look-ups; the enquiry's key
    // alone keeps them whole (deleting a business or a customer deletes its enquiries, and so their
    // messages), so only that key is checked on every insert, the hottest write there is.
    business_id: uuid('business_id').notNull(),
    enquiry_id: uuid('enquiry_id')
      .notNull()
      .references(() => enquiries.id, { onDelete: 'cascade' }),
    customer_id: uuid('customer_id').notNull(),
    channel: text('channel').notNull(),
    direction: text('direction', { enum: ['in', 'out'] }).notNull(),
    team_user_id: uuid('team_user_id').references(() => users.id, { onDelete: 'set null' }),
    message: text('message').notNull().default(''),
    meta: jsonb('meta').$type<MessageMeta>().notNull().default({}),
    attachments: jsonb('attachments').$type<Attachment[]>().notNull().default([]),
    status: text('status', { enum: ['queued', 'sent', 'delivered', 'read', 'failed', 'received'] }).notNull(),
    error: text('error'),
    client_id: text('client_id'),
    provider: text('provider'),
    provider_message_id: text('provider_message_id'),
    summary: text('summary'),
    summary_details: jsonb('summary_details'),
    call_location_details: jsonb('call_location_details'),
    call_summary_status: text('call_summary_status'),
    call_transcription_status: text('call_transcription_status'),
    ai_interaction: text('ai_interaction', { enum: ['ai_generated', 'ai_rewritten'] }),
    ai_original: text('ai_original'),
    user_modified: boolean('user_modified'),
    /**
     * When the send worker took this outbound message to hand to its provider; cleared once the attempt's
     * outcome is known. Still set on a queued message after a crash: the next attempt asks the provider
     * whether it arrived before sending again.
     */
    send_started_at: ts('send_started_at'),
    ...stamps(),
  },
  (t) => [
    index('messages_queued_idx').on(t.created_at).where(sql`${t.status} = 'queued'`),
    index('messages_enquiry_idx').on(
      t.enquiry_id,
      t.created_at.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    uniqueIndex('messages_provider_id_key').on(t.provider, t.provider_message_id),
    index('messages_business_idx').on(t.business_id, t.created_at),
  ],
);

export const drafts = pgTable(
  'drafts',
  {
    enquiry_id: uuid('enquiry_id')
      .notNull()
      .references(() => enquiries.id, { onDelete: 'cascade' }),
    user_id: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    business_id: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    message: text('message').notNull().default(''),
    meta: jsonb('meta').$type<MessageMeta>().notNull().default({}),
    attachments: jsonb('attachments').$type<Attachment[]>().notNull().default([]),
    ai_interaction: text('ai_interaction', { enum: ['ai_generated', 'ai_rewritten'] }),
    ai_original: text('ai_original'),
    /** What the assistant wrote, so a send can tell whether the person changed it (`user_modified`). */
    ai_text: text('ai_text'),
    ...stamps(),
  },
  (t) => [primaryKey({ columns: [t.enquiry_id, t.user_id] })],
);

/** A label the owner defines (name and colour) for staff to put on enquiries. */
export const labels = pgTable(
  'labels',
  {
    id: id(),
    business_id: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    colour: text('colour').notNull(),
    ...stamps(),
  },
  (t) => [uniqueIndex('labels_business_name_key').on(t.business_id, sql`lower(${t.name})`)],
);

/**
 * A private note in an enquiry's thread: written by staff for staff, never sent to the customer. Mentioned
 * teammates are told live.
 */
export const enquiryNotes = pgTable(
  'enquiry_notes',
  {
    id: id(),
    business_id: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    enquiry_id: uuid('enquiry_id')
      .notNull()
      .references(() => enquiries.id, { onDelete: 'cascade' }),
    user_id: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** `note`: written by a teammate; `event`: something that happened (an invoice paid), written by the product. */
    kind: text('kind', { enum: ['note', 'event'] })
      .notNull()
      .default('note'),
    body: text('body').notNull(),
    mentions: uuid('mentions').array().notNull().default(sql`'{}'::uuid[]`),
    /** Those mentioned who have read it (opened it from their Mentions, or the enquiry itself). */
    mentions_read: uuid('mentions_read').array().notNull().default(sql`'{}'::uuid[]`),
    ...stamps(),
  },
  (t) => [
    index('enquiry_notes_enquiry_idx').on(t.enquiry_id, t.created_at),
    // A person's Mentions: the notes naming them, within one business.
    index('enquiry_notes_mentions_idx').using('gin', t.business_id, t.mentions),
  ],
);

/**
 * A phone call, in or out, and the `phone_call` message that shows it in the customer's conversation. The
 * provider's call id is unique, so a repeated webhook finds the call it already made.
 */
export const calls = pgTable(
  'calls',
  {
    id: id(),
    business_id: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    location_id: uuid('location_id')
      .notNull()
      .references(() => locations.id, { onDelete: 'cascade' }),
    enquiry_id: uuid('enquiry_id')
      .notNull()
      .references(() => enquiries.id, { onDelete: 'cascade' }),
    message_id: uuid('message_id')
      .notNull()
      .references(() => messages.id, { onDelete: 'cascade' }),
    customer_id: uuid('customer_id').notNull(),
    /** Who answered (in) or placed (out) the call. */
    user_id: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    direction: text('direction', { enum: ['in', 'out'] }).notNull(),
    from_number: text('from_number').notNull(),
    to_number: text('to_number').notNull(),
    /** Twilio's call statuses: queued, initiated, ringing, in-progress, completed, busy, no-answer, failed, canceled. */
    status: text('status').notNull(),
    /** Seconds, once the call has ended. */
    duration: integer('duration'),
    /** The caller left a voicemail (nobody answered, or the location was closed). */
    voicemail: boolean('voicemail').notNull().default(false),
    provider: text('provider').notNull(),
    provider_call_sid: text('provider_call_sid').notNull(),
    recording_sid: text('recording_sid'),
    recording_upload_id: uuid('recording_upload_id'),
    recording_channels: integer('recording_channels'),
    answered_at: ts('answered_at'),
    ended_at: ts('ended_at'),
    ...stamps(),
  },
  (t) => [
    uniqueIndex('calls_provider_sid_key').on(t.provider, t.provider_call_sid),
    index('calls_business_idx').on(t.business_id, t.created_at.desc()),
    index('calls_message_idx').on(t.message_id),
  ],
);

/**
 * Who can be rung at a location right now: a browser that has registered its phone and whose person is
 * available keeps its row fresh; a row past `available_until` (the browser closed) rings nobody.
 */
export const callPresence = pgTable(
  'call_presence',
  {
    user_id: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    location_id: uuid('location_id')
      .notNull()
      .references(() => locations.id, { onDelete: 'cascade' }),
    business_id: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    available_until: ts('available_until').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.user_id, t.location_id] }),
    index('call_presence_location_idx').on(t.location_id),
  ],
);

/**
 * A number a location advertises in one campaign (a flyer, a Google ad): calls to it ring the location like
 * its own number, and are attributed to the campaign (source, medium, campaign) in the call history.
 */
export const trackingNumbers = pgTable(
  'tracking_numbers',
  {
    id: id(),
    business_id: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    location_id: uuid('location_id')
      .notNull()
      .references(() => locations.id, { onDelete: 'cascade' }),
    /** E.164. */
    number: text('number').notNull(),
    source: text('source').notNull(),
    medium: text('medium'),
    campaign: text('campaign'),
    ...stamps(),
  },
  (t) => [
    uniqueIndex('tracking_numbers_business_number_key').on(t.business_id, t.number),
    index('tracking_numbers_location_idx').on(t.location_id, t.created_at),
  ],
);

/**
 * A person's desk phone login at a location: a credential on the location's Twilio SIP domain. Its password
 * is shown once, when it is made or reset, and never stored here.
 */
export const sipCredentials = pgTable(
  'sip_credentials',
  {
    id: id(),
    business_id: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    location_id: uuid('location_id')
      .notNull()
      .references(() => locations.id, { onDelete: 'cascade' }),
    user_id: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The SIP domain's address, e.g. `switchboard-0195b3c40000.sip.twilio.com`. */
    domain: text('domain').notNull(),
    username: text('username').notNull(),
    credential_sid: text('credential_sid').notNull(),
    /** When the desk phone last took or placed a call. */
    last_call_at: ts('last_call_at'),
    ...stamps(),
  },
  (t) => [
    uniqueIndex('sip_credentials_user_location_key').on(t.user_id, t.location_id),
    uniqueIndex('sip_credentials_domain_username_key').on(t.domain, t.username),
    index('sip_credentials_location_idx').on(t.location_id),
  ],
);

/** Notes staff keep about a customer, beside every conversation with them; never sent. */
export const customerNotes = pgTable(
  'customer_notes',
  {
    id: id(),
    business_id: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    customer_id: uuid('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    user_id: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    body: text('body').notNull(),
    ...stamps(),
  },
  (t) => [index('customer_notes_customer_idx').on(t.customer_id, t.created_at)],
);

export const channelAccounts = pgTable(
  'channel_accounts',
  {
    id: id(),
    business_id: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    location_id: uuid('location_id')
      .notNull()
      .references(() => locations.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    /** The provider-side address this account receives on: a phone number, page id, phone_number_id, agent id. */
    address: text('address'),
    /** Public, non-secret configuration. */
    config: jsonb('config').$type<Record<string, unknown>>().notNull().default({}),
    /** Secret configuration, encrypted at rest (AES-256-GCM, base64). */
    secrets_encrypted: text('secrets_encrypted'),
    webhook_token: text('webhook_token'),
    /**
     * When the provider last confirmed that these credentials own the address (Twilio: the number is the
     * account's; Meta: the token reaches the page, Instagram account or WhatsApp number). Null: never shown
     * (accounts saved before the check, Google RCS): such an account never keeps a proven one off its address.
     */
    verified_at: ts('verified_at'),
    /**
     * When another business proved it owns this account's address and took it: the account is disconnected
     * (no webhooks, no sending) until its owner enters details the provider confirms, or deletes it.
     */
    displaced_at: ts('displaced_at'),
    ...stamps(),
  },
  (t) => [
    index('channel_accounts_business_idx').on(t.business_id, t.location_id),
    index('channel_accounts_address_idx').on(t.provider, t.address),
  ],
);

/**
 * A business's Twilio subaccount under the platform's Twilio account: numbers owners buy without a Twilio
 * account of their own live here, one subaccount per business, made with the first purchase and reused.
 */
export const platformTwilioAccounts = pgTable('platform_twilio_accounts', {
  business_id: uuid('business_id')
    .primaryKey()
    .references(() => businesses.id, { onDelete: 'cascade' }),
  account_sid: text('account_sid').notNull().unique(),
  /** The subaccount's Auth Token, encrypted like channel account secrets (business id as AAD). */
  auth_token_encrypted: text('auth_token_encrypted').notNull(),
  created_at: ts('created_at').notNull().defaultNow(),
});

/**
 * A number bought through the platform account for a location, connected as its Twilio channel account; kept
 * after release (`released_at`) as the record of what was held. `registration` is what carriers in its country
 * need before it may text: not_required | required | pending | approved | rejected.
 */
export const platformNumbers = pgTable(
  'platform_numbers',
  {
    id: id(),
    business_id: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    location_id: uuid('location_id').references(() => locations.id, { onDelete: 'set null' }),
    channel_account_id: uuid('channel_account_id').references(() => channelAccounts.id, {
      onDelete: 'set null',
    }),
    account_sid: text('account_sid').notNull(),
    phone_number: text('phone_number').notNull(),
    phone_number_sid: text('phone_number_sid').notNull(),
    iso_country: text('iso_country').notNull(),
    number_type: text('number_type').notNull(),
    registration: text('registration').notNull(),
    released_at: ts('released_at'),
    /** Why the last attempt to release it at Twilio failed; retried by the release job. */
    release_error: text('release_error'),
    ...stamps(),
  },
  (t) => [
    index('platform_numbers_business_idx').on(t.business_id, t.location_id),
    uniqueIndex('platform_numbers_held_idx').on(t.phone_number).where(sql`released_at is null`),
  ],
);

export const auditLog = pgTable(
  'audit_log',
  {
    id: id(),
    business_id: uuid('business_id').references(() => businesses.id, { onDelete: 'cascade' }),
    user_id: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    action: text('action').notNull(),
    target: text('target'),
    detail: jsonb('detail'),
    created_at: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('audit_log_business_idx').on(t.business_id, t.created_at)],
);

export const messageTemplates = pgTable(
  'message_templates',
  {
    id: id(),
    business_id: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    /** Null: offered in every location. */
    location_id: uuid('location_id').references(() => locations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    body: text('body').notNull(),
    ...stamps(),
  },
  (t) => [index('message_templates_business_idx').on(t.business_id, t.name)],
);

/**
 * Fingerprints of the installation's keys (ENCRYPTION_KEY, JWT_SECRET), written by the first start and compared
 * at every start, so a node started with a different key stops with a message instead of failing to read what
 * the others wrote. A fingerprint is an HMAC of a fixed text under the key: it does not reveal the key.
 */
export const installKeys = pgTable('install_keys', {
  name: text('name').primaryKey(),
  fingerprint: text('fingerprint').notNull(),
  created_at: ts('created_at').notNull().defaultNow(),
});

/** What the owner told the assistant about the business (onboarding), and how it speaks. One per business. */
export const aiProfiles = pgTable('ai_profiles', {
  business_id: uuid('business_id')
    .primaryKey()
    .references(() => businesses.id, { onDelete: 'cascade' }),
  description: text('description').notNull().default(''),
  services: text('services').notNull().default(''),
  hours: text('hours').notNull().default(''),
  tone: text('tone', { enum: ['friendly', 'professional', 'casual'] })
    .notNull()
    .default('friendly'),
  /** Sent to the customer when the assistant hands the conversation to a person (placeholders filled in). */
  handoff_message: text('handoff_message'),
  /** A super admin's choice of provider for this business; null: the installation's. */
  provider: text('provider', { enum: ['builtin', 'model'] }),
  onboarding_completed: boolean('onboarding_completed').notNull().default(false),
  ...stamps(),
});

/** A file or web page the assistant learns from, cut into `ai_sections`. */
export const aiDocuments = pgTable(
  'ai_documents',
  {
    id: id(),
    business_id: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['file', 'url'] }).notNull(),
    name: text('name').notNull(),
    url: text('url'),
    content_type: text('content_type'),
    size: integer('size').notNull().default(0),
    status: text('status', { enum: ['processing', 'ready', 'failed'] })
      .notNull()
      .default('processing'),
    error: text('error'),
    /** How often a website is fetched again: never, daily, weekly or monthly. */
    recrawl: text('recrawl', { enum: ['never', 'daily', 'weekly', 'monthly'] })
      .notNull()
      .default('never'),
    crawled_at: ts('crawled_at'),
    ...stamps(),
  },
  (t) => [index('ai_documents_business_idx').on(t.business_id, t.created_at)],
);

/** A part of a document under one heading: what retrieval reads and what FAQs are proposed from. */
export const aiSections = pgTable(
  'ai_sections',
  {
    id: id(),
    business_id: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    document_id: uuid('document_id')
      .notNull()
      .references(() => aiDocuments.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    heading: text('heading').notNull().default(''),
    body: text('body').notNull(),
    search: tsvector('search').notNull(),
  },
  (t) => [
    index('ai_sections_document_idx').on(t.document_id, t.position),
    index('ai_sections_search_idx').using('gin', t.business_id, t.search),
  ],
);

/**
 * A question the assistant answers. `status` 'proposed': suggested (from a document, or from how staff answered
 * a handed-off conversation) and waiting for the owner; `target_faq_id` set: the proposal is a further phrasing
 * of that FAQ rather than a new one.
 */
export const aiFaqs = pgTable(
  'ai_faqs',
  {
    id: id(),
    business_id: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    question: text('question').notNull(),
    answer: text('answer').notNull(),
    /** "Also asked as": other ways customers put the same question. */
    phrasings: text('phrasings').array().notNull().default(sql`'{}'::text[]`),
    /** Null: every location. */
    location_ids: uuid('location_ids').array(),
    status: text('status', { enum: ['active', 'proposed'] })
      .notNull()
      .default('active'),
    origin: text('origin', { enum: ['manual', 'document', 'handoff', 'onboarding'] })
      .notNull()
      .default('manual'),
    document_id: uuid('document_id').references(() => aiDocuments.id, { onDelete: 'set null' }),
    section_id: uuid('section_id').references(() => aiSections.id, { onDelete: 'set null' }),
    source_enquiry_id: uuid('source_enquiry_id').references(() => enquiries.id, { onDelete: 'set null' }),
    target_faq_id: uuid('target_faq_id'),
    /** Question weighted A, phrasings B, answer C (set by the app on every write). */
    search: tsvector('search').notNull(),
    /** The model's embedding of question and phrasings, when an embeddings model is configured. */
    embedding: real('embedding').array(),
    ...stamps(),
  },
  (t) => [
    index('ai_faqs_business_idx').on(t.business_id, t.status, t.created_at),
    index('ai_faqs_search_idx').using('gin', t.business_id, t.search),
    index('ai_faqs_question_trgm_idx').using('gin', t.question.op('gin_trgm_ops')),
  ],
);

/** A scripted conversation the assistant follows when its trigger matches: steps in `position` order. */
export const aiFlows = pgTable(
  'ai_flows',
  {
    id: id(),
    business_id: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** Words or phrases that start the flow (any one of them, whole words, any case). */
    keywords: text('keywords').array().notNull().default(sql`'{}'::text[]`),
    /** What the customer wants, in a few words, for a model to recognise (the built-in assistant uses keywords). */
    intent: text('intent').notNull().default(''),
    action: text('action', { enum: ['off', 'suggest', 'auto'] })
      .notNull()
      .default('off'),
    steps: jsonb('steps').$type<Record<string, unknown>[]>().notNull().default([]),
    location_ids: uuid('location_ids').array(),
    ...stamps(),
  },
  (t) => [index('ai_flows_business_idx').on(t.business_id, t.created_at)],
);

/** Where an enquiry is in a flow: the next step to run and what was collected. */
export const aiFlowRuns = pgTable('ai_flow_runs', {
  enquiry_id: uuid('enquiry_id')
    .primaryKey()
    .references(() => enquiries.id, { onDelete: 'cascade' }),
  flow_id: uuid('flow_id')
    .notNull()
    .references(() => aiFlows.id, { onDelete: 'cascade' }),
  business_id: uuid('business_id').notNull(),
  step: integer('step').notNull().default(0),
  values: jsonb('values').$type<Record<string, string>>().notNull().default({}),
  ...stamps(),
});

/** An HTTP call the assistant may make: its URL template, headers (secrets sealed) and JSON-schema parameters. */
export const aiTools = pgTable(
  'ai_tools',
  {
    id: id(),
    business_id: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    method: text('method', { enum: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] })
      .notNull()
      .default('GET'),
    url_template: text('url_template').notNull(),
    /** Header names with their values sealed (AES-256-GCM); the API only ever shows them masked. */
    headers_encrypted: text('headers_encrypted'),
    body_template: text('body_template'),
    parameters: jsonb('parameters').$type<Record<string, unknown>>().notNull().default({}),
    ...stamps(),
  },
  (t) => [uniqueIndex('ai_tools_name_key').on(t.business_id, t.name)],
);

/** Thumbs up or down on something the assistant said, with the reason. */
export const aiRatings = pgTable(
  'ai_ratings',
  {
    id: id(),
    business_id: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    message_id: uuid('message_id').notNull(),
    enquiry_id: uuid('enquiry_id'),
    location_id: uuid('location_id'),
    user_id: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    rating: text('rating', { enum: ['up', 'down'] }).notNull(),
    feedback: text('feedback').notNull().default(''),
    message: text('message').notNull().default(''),
    response: text('response').notNull().default(''),
    ...stamps(),
  },
  (t) => [
    uniqueIndex('ai_ratings_message_user_key').on(t.message_id, t.user_id),
    index('ai_ratings_business_idx').on(t.business_id, t.created_at),
  ],
);

/** The owner's own test conversations with the assistant (the playground); never reach a customer. */
export const aiEnquiries = pgTable(
  'ai_enquiries',
  {
    id: id(),
    business_id: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    user_id: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    location_id: uuid('location_id').references(() => locations.id, { onDelete: 'set null' }),
    title: text('title').notNull(),
    ...stamps(),
  },
  (t) => [index('ai_enquiries_business_idx').on(t.business_id, t.updated_at)],
);

export const aiMessages = pgTable(
  'ai_messages',
  {
    id: id(),
    ai_enquiry_id: uuid('ai_enquiry_id')
      .notNull()
      .references(() => aiEnquiries.id, { onDelete: 'cascade' }),
    business_id: uuid('business_id').notNull(),
    role: text('role', { enum: ['customer', 'assistant'] }).notNull(),
    message: text('message').notNull(),
    /** The assistant's reply: what it did and where it came from (`AiReplyMeta`). */
    ai: jsonb('ai').$type<Record<string, unknown>>(),
    ...stamps(),
  },
  (t) => [index('ai_messages_enquiry_idx').on(t.ai_enquiry_id, t.created_at)],
);

/** How a business's invoices look and are numbered, and when their reminders go; one row per business. */
export const invoiceBranding = pgTable('invoice_branding', {
  business_id: uuid('business_id')
    .primaryKey()
    .references(() => businesses.id, { onDelete: 'cascade' }),
  /** Storage key of the logo (`PUT …/branding/icon`). */
  logo: text('logo'),
  accent_color: text('accent_color').notNull().default('#1E75FF'),
  font: text('font').notNull().default('noto-sans'),
  footer: text('footer'),
  payment_terms: text('payment_terms'),
  tax_id: text('tax_id'),
  currency: text('currency').notNull().default('AUD'),
  number_prefix: text('number_prefix').notNull().default('INV-'),
  /** The next invoice's number; taken under the row's lock, never handed out twice. */
  next_number: integer('next_number').notNull().default(1),
  /** Reminders: days before the due date (null: none) and days after it (each once). */
  reminder_days_before: integer('reminder_days_before').default(3),
  reminder_days_after: integer('reminder_days_after').array().notNull().default(sql`'{1,7}'::integer[]`),
  ...stamps(),
});

export const invoices = pgTable(
  'invoices',
  {
    id: id(),
    business_id: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    location_id: uuid('location_id').references(() => locations.id, { onDelete: 'set null' }),
    customer_id: uuid('customer_id').references(() => customers.id, { onDelete: 'set null' }),
    enquiry_id: uuid('enquiry_id').references(() => enquiries.id, { onDelete: 'set null' }),
    created_by: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    number: text('number').notNull(),
    /** Who the invoice is made out to (the customer's name when it was written). */
    bill_to: text('bill_to'),
    status: text('status', { enum: INVOICE_STATUSES }).notNull().default('draft'),
    /** ISO 4217 code. Every `*_cents` amount of an invoice is in this currency's minor units (cents, yen, fils). */
    currency: text('currency').notNull(),
    subtotal_cents: integer('subtotal_cents').notNull().default(0),
    tax_cents: integer('tax_cents').notNull().default(0),
    /** The card surcharge's rate when the invoice was written (0: none) and its amount. */
    surcharge_bps: integer('surcharge_bps').notNull().default(0),
    surcharge_cents: integer('surcharge_cents').notNull().default(0),
    /** What the customer pays: subtotal + tax + surcharge. */
    total_cents: integer('total_cents').notNull().default(0),
    /** What of the payments counts toward the invoice (`invoice_payments.applied_cents`, added up). */
    amount_paid_cents: integer('amount_paid_cents').notNull().default(0),
    /** What of that was refunded. */
    amount_refunded_cents: integer('amount_refunded_cents').notNull().default(0),
    due_date: date('due_date', { mode: 'string' }),
    notes: text('notes'),
    /** Close the conversation when the invoice is paid. */
    close_on_paid: boolean('close_on_paid').notNull().default(false),
    /** The public pay page's key (`/pay/{secret}`): random, never the id. */
    secret: text('secret').notNull(),
    /** Goes up with every change a PDF shows; PDFs are cached by it. */
    version: integer('version').notNull().default(1),
    /** The open Checkout session: reused while it is for the amount due and has time left. */
    checkout_session_id: text('checkout_session_id'),
    checkout_url: text('checkout_url'),
    checkout_amount_cents: integer('checkout_amount_cents'),
    checkout_expires_at: ts('checkout_expires_at'),
    /** The first payment's intent (each payment is in `invoice_payments`). */
    payment_intent_id: text('payment_intent_id'),
    /** Why the last payment attempt failed, as the card network said (shown on the pay page). */
    last_payment_error: text('last_payment_error'),
    /** Reminder keys already sent (`before:3`, `after:1`); each goes once. */
    reminders_sent: text('reminders_sent').array().notNull().default(sql`'{}'::text[]`),
    sent_at: ts('sent_at'),
    viewed_at: ts('viewed_at'),
    paid_at: ts('paid_at'),
    voided_at: ts('voided_at'),
    ...stamps(),
  },
  (t) => [
    uniqueIndex('invoices_business_number_key').on(t.business_id, t.number),
    uniqueIndex('invoices_secret_key').on(t.secret),
    index('invoices_business_created_idx').on(t.business_id, t.created_at),
    // The invoice reports read invoices by when they were sent and when they were paid.
    index('invoices_business_sent_idx').on(t.business_id, t.sent_at).where(sql`${t.sent_at} is not null`),
    index('invoices_business_paid_idx').on(t.business_id, t.paid_at).where(sql`${t.paid_at} is not null`),
    index('invoices_customer_idx').on(t.customer_id),
    index('invoices_checkout_idx').on(t.checkout_session_id),
    index('invoices_payment_intent_idx').on(t.payment_intent_id),
    index('invoices_open_due_idx')
      .on(t.due_date)
      .where(sql`${t.status} in ('sent', 'viewed', 'overdue', 'partially_paid')`),
  ],
);

/**
 * Every payment Stripe reported for an invoice, as it arrived (its own currency and amount), and how much of it
 * counts toward the invoice. What does not count (it came after the invoice was voided, refunded or paid, in
 * another currency, or beyond the total) is owed back to the customer until it is refunded.
 */
export const invoicePayments = pgTable(
  'invoice_payments',
  {
    id: id(),
    business_id: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    invoice_id: uuid('invoice_id')
      .notNull()
      .references(() => invoices.id, { onDelete: 'cascade' }),
    payment_intent_id: text('payment_intent_id').notNull(),
    checkout_session_id: text('checkout_session_id'),
    /** The currency it was paid in, and the amount in that currency's minor units. */
    currency: text('currency').notNull(),
    amount_cents: integer('amount_cents').notNull(),
    /** The part that counts toward the invoice (0 when it is in another currency or nothing was owed). */
    applied_cents: integer('applied_cents').notNull().default(0),
    /** Refunded of this payment at Stripe: first what was not owed, then what was applied. */
    refunded_cents: integer('refunded_cents').notNull().default(0),
    /** Why some or all of it does not count: `void`, `refunded`, `already_paid`, `not_sent`, `other_currency`, `overpaid`. */
    unapplied_reason: text('unapplied_reason', {
      enum: ['void', 'refunded', 'already_paid', 'not_sent', 'other_currency', 'overpaid'],
    }),
    received_at: ts('received_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('invoice_payments_intent_key').on(t.payment_intent_id),
    index('invoice_payments_invoice_idx').on(t.invoice_id, t.received_at),
  ],
);

/**
 * Each refund as it became known (made here, or at Stripe and reported by `charge.refunded`): what of the
 * invoice's payments was given back, and when, so reports can say what was refunded in a period.
 */
export const invoiceRefunds = pgTable(
  'invoice_refunds',
  {
    id: id(),
    business_id: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    invoice_id: uuid('invoice_id')
      .notNull()
      .references(() => invoices.id, { onDelete: 'cascade' }),
    /** The invoice's currency, and the amount refunded of what counted toward it, in its minor units. */
    currency: text('currency').notNull(),
    amount_cents: integer('amount_cents').notNull(),
    refunded_at: ts('refunded_at').notNull().defaultNow(),
  },
  (t) => [index('invoice_refunds_business_at_idx').on(t.business_id, t.refunded_at)],
);

export const invoiceItems = pgTable(
  'invoice_items',
  {
    id: id(),
    invoice_id: uuid('invoice_id')
      .notNull()
      .references(() => invoices.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    description: text('description').notNull(),
    quantity: numeric('quantity', { precision: 12, scale: 3, mode: 'number' }).notNull(),
    unit_price_cents: integer('unit_price_cents').notNull(),
    /** Tax rate in basis points (1000 = 10%). */
    tax_rate_bps: integer('tax_rate_bps').notNull().default(0),
    amount_cents: integer('amount_cents').notNull(),
    tax_cents: integer('tax_cents').notNull(),
  },
  (t) => [index('invoice_items_invoice_idx').on(t.invoice_id, t.position)],
);

/** Stripe events already handled, by id: a redelivered event changes nothing. */
/**
 * A secret sent to someone once: an email verification link, a staff invitation, a texted mobile code, an emailed
 * sign-up code (`signup`: the sign-up waiting for it in `detail`), a password reset link. Only a hash is stored;
 * using it sets `used_at` in one conditional update, so it works once.
 */
export const oneTimeSecrets = pgTable(
  'one_time_secrets',
  {
    id: id(),
    kind: text('kind', {
      enum: ['email_verification', 'invitation', 'mobile_code', 'signup', 'password_reset'],
    }).notNull(),
    business_id: uuid('business_id').references(() => businesses.id, { onDelete: 'cascade' }),
    user_id: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    /** Where it was sent: the email address or the mobile number. */
    target: text('target').notNull(),
    secret_hash: text('secret_hash').notNull(),
    /** What the secret grants beyond its kind (an invitation's role and locations, a waiting sign-up). */
    detail: jsonb('detail').$type<Record<string, unknown>>(),
    attempts: integer('attempts').notNull().default(0),
    expires_at: ts('expires_at').notNull(),
    used_at: ts('used_at'),
    ...stamps(),
  },
  (t) => [
    uniqueIndex('one_time_secrets_hash_key').on(t.secret_hash),
    index('one_time_secrets_target_idx').on(t.kind, t.target, t.created_at),
  ],
);

/**
 * Jobs written in the same transaction as what they follow up (an inbound message's media download and the
 * assistant's answer, a missed call's text back), moved to the job queue once that transaction commits and
 * then deleted. A process that stops in between leaves them here, and the next sweep queues them: each job's
 * id is fixed, so queuing it twice adds nothing. `options` are the queue's send options (retries, start).
 */
export const jobOutbox = pgTable(
  'job_outbox',
  {
    name: text('name').notNull(),
    id: uuid('id').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    options: jsonb('options').$type<Record<string, unknown>>().notNull().default({}),
    created_at: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.name, t.id] })],
);

export const stripeEvents = pgTable('stripe_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  account: text('account'),
  received_at: ts('received_at').notNull().defaultNow(),
});

/**
 * A review request: the customer was sent the location's review message with a tracked short link
 * (`/r/{token}`); opening it records the click and ends the reminders, as does the customer's reply.
 */
export const reviewRequests = pgTable(
  'review_requests',
  {
    id: id(),
    business_id: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    location_id: uuid('location_id').references(() => locations.id, { onDelete: 'set null' }),
    customer_id: uuid('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    enquiry_id: uuid('enquiry_id').references(() => enquiries.id, { onDelete: 'set null' }),
    invoice_id: uuid('invoice_id').references(() => invoices.id, { onDelete: 'set null' }),
    created_by: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    /** The short link's key. */
    token: text('token').notNull(),
    /** Where the link goes (the location's review link when it was sent). */
    review_url: text('review_url').notNull(),
    /** `sent` until the link is opened (`clicked`); `failed` when it could not be sent. */
    status: text('status', { enum: ['sent', 'clicked', 'failed'] })
      .notNull()
      .default('sent'),
    reminders_sent: integer('reminders_sent').notNull().default(0),
    /** When the next reminder is due; null: none (all sent, or stopped). */
    next_reminder_at: ts('next_reminder_at'),
    /** Why reminders stopped early: `clicked` or `replied`. */
    reminders_stopped: text('reminders_stopped'),
    sent_at: ts('sent_at').notNull().defaultNow(),
    clicked_at: ts('clicked_at'),
    ...stamps(),
  },
  (t) => [
    uniqueIndex('review_requests_token_key').on(t.token),
    index('review_requests_business_idx').on(t.business_id, t.sent_at),
    index('review_requests_customer_idx').on(t.customer_id, t.sent_at),
    index('review_requests_due_idx').on(t.next_reminder_at).where(sql`${t.next_reminder_at} is not null`),
  ],
);
