import type { channelAccounts } from '@switchboard/db';
import type {
  Attachment,
  EnquiryRow,
  MessageDto,
  MessageStatus,
  Provider,
  ProviderConfigOf,
} from '@switchboard/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { MediaRef } from '../jobs/definitions/inbound-media.ts';

/** What a provider adapter is asked to send: everything it needs, already resolved by the pipeline. */
export type OutboundMessage = {
  id: string;
  business_id: string;
  location_id: string;
  channel: string;
  to: { phone: string | null; email: string | null; name: string | null; external_id: string | null };
  from: { location_name: string | null; phone: string | null; email: string | null };
  message: string;
  subject?: string;
  attachments: Attachment[];
  /** Earlier messages of the thread's provider ids, for threading (email In-Reply-To/References). */
  thread: {
    provider_message_ids: string[];
    /** The WhatsApp id the customer last wrote from in this thread (it may spell their number differently). */
    wa_id?: string;
  };
  /** The stored message's meta, e.g. a WhatsApp template chosen in the composer (`whatsapp_template`). */
  meta?: Record<string, unknown>;
  enquiry_id?: string;
  customer_id?: string;
};

export type SendResult = {
  provider: string;
  provider_message_id: string;
  status?: Extract<MessageStatus, 'sent' | 'delivered'>;
  /** Added to the stored message's meta, e.g. how a website chat reply went (`delivered_via: 'sms'`). */
  meta?: Record<string, unknown>;
};

export type ChannelAdapter = {
  provider: string;
  /** Which provider account sends (its rate limits and pauses are per account); the provider when one serves all. */
  key?: string;
  send(message: OutboundMessage): Promise<SendResult>;
  /**
   * A send of this message began at `since` and its outcome was never recorded (the process stopped): did
   * the provider take it? The result if so, null if it certainly did not (then it is sent now). Adapters
   * that cannot tell leave this out, and such a message is failed with the reason rather than sent twice.
   */
  reconcile?(message: OutboundMessage, since: Date): Promise<SendResult | null>;
};

/** A message as a provider delivered it, normalised: the input of the inbound pipeline (DESIGN §6). */
export type InboundMessage = {
  provider: string;
  provider_message_id: string;
  channel: string;
  location_id: string;
  from: { phone?: string; email?: string; name?: string; external_id?: string };
  message: string;
  subject?: string;
  attachments?: Attachment[];
  meta?: Record<string, unknown>;
  source?: string;
  medium?: string;
  campaign?: string;
  timestamp?: Date;
  /**
   * The conversation the provider says this continues (email In-Reply-To, a reply address). Honoured only when
   * that enquiry is the same business, location, customer and channel; a closed one is reopened.
   */
  enquiry_id?: string;
  /** The provider account that received it: media is downloaded later with that account's credentials. */
  account_id?: string;
  /** Files the provider points at, downloaded by a job after the provider has had its answer. */
  media?: MediaRef[];
  /** An SMS keyword: STOP opts the customer out of texts, START back in (stored with the message). */
  sms_opt?: 'out' | 'in';
  /**
   * Sent by a machine, not the customer (an out-of-office reply, list or bulk mail): it joins its thread but
   * is not the customer replying. It reopens nothing, starts no wait, wakes no snooze, and nothing in the
   * product answers it automatically.
   */
  automatic?: boolean;
};

/** What the inbound pipeline answers: the message as stored, or as stored before (a provider's repeat). */
export type InboundOutcome = {
  duplicate: boolean;
  message: MessageDto;
  enquiry: EnquiryRow;
};

/**
 * The one door into the inbox for every source (provider webhooks, email, the website chat, forms, the
 * sandbox): it stores customer, enquiry, message, opt-out and counters in one transaction, recognises a
 * repeat, queues the media, and tells everyone after the commit. Channels get it as `app.inbound`.
 */
export type InboundSink = {
  receive(message: InboundMessage): Promise<InboundOutcome>;
  /** A delivery report for one of our messages (e.g. a bounce): moves it forward only; false if it did not. */
  status(report: { message_id: string; status: MessageStatus; error?: string | null }): Promise<boolean>;
  /** A warning about one of our sent messages (a delayed delivery): kept on it, its status unchanged. */
  warning(report: { message_id: string; warning: string }): Promise<boolean>;
};

declare module 'fastify' {
  interface FastifyInstance {
    /** The inbound pipeline's one entry point (see InboundSink). */
    inbound: InboundSink;
  }
}

export type AccountRow = typeof channelAccounts.$inferSelect;

/** A connected account with its secrets decrypted: only ever held in memory, never answered. */
export type Account<P extends Provider = Provider> = {
  row: AccountRow;
  provider: P;
  config: ProviderConfigOf[P];
};

/**
 * What a provider said about credentials being connected: `proven` when it confirmed they own the address the
 * account receives on (a number, page, Instagram account, WhatsApp number); otherwise why it could not say.
 * A provider that refuses the credentials or the address throws instead.
 */
export type Ownership = { proven: true } | { proven: false; why: string };

/** Which connected accounts a webhook may concern: by their address, or by one field of their config. */
export type AccountQuery = { address?: string | null; configField?: [string, string | null | undefined] };

/** A provider's report on one of our messages, limited to the businesses whose credentials signed it. */
export type StatusReport = {
  business_ids: string[];
  provider: string;
  provider_message_id: string;
  /** Our message id, when the provider echoes it back (it may beat the send job's own update). */
  our_message_id?: string | null;
  status: MessageStatus;
  error?: string | null;
  /** The carrier says the customer has opted out of texts (they replied STOP elsewhere). */
  opted_out?: boolean;
};

/** Messenger and Instagram say "everything up to this moment was delivered / read" for one customer. */
export type WatermarkReport = {
  business_id: string;
  provider: string;
  channel: string;
  external_id: string;
  watermark: Date;
  status: MessageStatus;
};

/**
 * What a provider's webhooks may ask of the app: find the accounts that could have signed a request, and hand
 * over what the provider said, normalised. Provider code never reaches past this into the app.
 */
export type WebhookContext = {
  /** The URL the provider requested, as it signed it: PUBLIC_URL + path + query. */
  signedUrl(request: FastifyRequest): string;
  accounts: {
    /**
     * The accounts the query names; kept briefly between webhooks. `fresh` reads them again: a provider asks
     * for it when a signature does not verify, in case the account's credentials changed meanwhile.
     */
    where<P extends Provider>(
      provider: P,
      query: AccountQuery,
      options?: { fresh?: boolean },
    ): Promise<Account<P>[]>;
    /** Every account of these providers (verification handshakes check them all). */
    of(providers: Provider[]): Promise<Account[]>;
  };
  /** Stores a customer's message at the account's location (media downloaded with its credentials). */
  receive(
    account: Account,
    message: Omit<InboundMessage, 'location_id' | 'account_id'>,
  ): Promise<InboundOutcome>;
  status(report: StatusReport): Promise<void>;
  watermark(report: WatermarkReport): Promise<void>;
  /** The customer unsent one of their messages: its content is cleared, the row kept (see applyUnsend). */
  unsent(account: Account, report: { provider: string; provider_message_id: string }): Promise<void>;
  /** The customer is named from the provider's profile, after the webhook has answered. */
  profileWanted(account: Account, externalId: string): Promise<void>;
  calls: CallPort;
};

/** Who to ring for a customer's call, or why nobody is rung. */
export type RingPlan = {
  call_id: string;
  enquiry_id: string;
  /** The location's hours say it is open now. */
  open: boolean;
  /** The browsers to ring: identities of available staff at the location, with what their call toast shows. */
  clients: { identity: string; parameters: Record<string, string> }[];
  /** The location's desk phones (SIP addresses), rung with the browsers. */
  sip: string[];
  /** What the caller hears before leaving a voicemail. */
  greeting: string;
};

/** What a voice provider's webhooks tell the app about calls (calls are stored in the customer's conversation). */
export type CallPort = {
  /** A customer rings the account's location: stored, and who to ring answered. */
  incoming(account: Account, call: { sid: string; from: string; to: string }): Promise<RingPlan>;
  /** The location a campaign's tracking number rings, among these businesses' numbers, or null. */
  trackingNumber(number: string, businessIds: string[]): Promise<{ location_id: string } | null>;
  /**
   * A browser places a call through the account: stored in the customer's conversation (`enquiry_id` when
   * the call was started from one), and the number to dial with the caller id the customer sees; or, when it
   * cannot be placed, the sentence the caller hears.
   */
  outgoing(
    account: Account,
    call: { sid: string; user_id: string; to: string; enquiry_id?: string },
  ): Promise<{ caller_id: string; number: string } | { refuse: string }>;
  /** The person and location a desk phone (`sip:user@domain`) belongs to, or null. */
  deskPhone(address: string): Promise<{ user_id: string; location_id: string } | null>;
  /** A call's (or one of its legs') status moved; `answered_by_identity` names the browser or desk phone a leg rang. */
  status(report: {
    business_ids: string[];
    provider: string;
    sid: string;
    parent_sid?: string;
    status: string;
    duration?: number;
    answered_by_identity?: string;
  }): Promise<void>;
  /** `<Dial>` ended: the greeting before a voicemail when nobody took the call, else null (hang up). */
  dialEnded(report: {
    business_ids: string[];
    provider: string;
    sid: string;
    dial_status: string;
  }): Promise<{ greeting: string } | null>;
  /** A call's recording (or voicemail) is ready at the provider: fetched with the account's credentials. */
  recording(
    account: Account,
    report: {
      sid: string;
      recording_sid: string;
      recording_url: string;
      duration: number | null;
      channels: number | null;
      voicemail: boolean;
    },
  ): Promise<void>;
  /** The provider transcribed a call's voicemail (or could not). */
  transcribed(account: Account, report: { sid: string; completed: boolean; text: string }): Promise<void>;
};

/** One provider's webhook routes, registered under the app's raw-body webhook scope. */
export type WebhookRoutes = (app: FastifyInstance, ctx: WebhookContext) => void;
