import type {
  Attachment,
  Draft,
  EnquiryPage,
  EnquiryRow,
  EnquiryStatus,
  EnquiryView,
  LocationCounts,
  MemberDto,
  MessageDto,
  MessagePage,
  RenderedTemplateDto,
} from '@switchboard/shared';

export type { Attachment, EnquiryRow, EnquiryStatus, EnquiryView, LocationCounts, MessageDto };

/** The list filters a person sets beside the status tabs and view mode. */
export type EnquiryFilters = {
  channels: string[];
  /** 'YYYY-MM-DD' days, in the business's time zone on the server. */
  start_date?: string;
  end_date?: string;
  source?: string;
  medium?: string;
  /** A teammate's user id: their enquiries only. */
  assigned_to?: string;
  /** A label's id: only enquiries with it. */
  label?: string;
  q?: string;
};

/** Everything a cached enquiry list depends on: its query key, and what a live row is matched against. */
export type EnquiryListParams = EnquiryFilters & {
  locationId: string;
  status: EnquiryStatus;
  view: EnquiryView;
  /** Open only: the snoozed enquiries instead of the awake ones. */
  snoozed?: boolean;
};

export type { Draft, EnquiryPage, MessagePage };

/** TanStack Query's shape for infinite queries, restated so the pure cache functions need no React. */
export type Paged<TPage> = { pages: TPage[]; pageParams: unknown[] };

/** A template offered in an enquiry, its placeholders filled for the customer. */
export type MessageTemplate = RenderedTemplateDto;

/** What the inbox needs to know about the signed-in person (the route passes it in from the session). */
export type InboxUser = {
  id: string;
  fullName: string;
  avatar: string | null;
  /** Notifications are on: the list offers to ask the browser's permission for sounds. */
  enableNotifications: boolean;
  /** An owner (or administrator): manages the business's labels. */
  canManage: boolean;
  /** Enter sends (Shift+Enter a new line); otherwise Ctrl/⌘+Enter sends. */
  sendOnEnter: boolean;
};

/** Channels a staff member can start a conversation on (POST /messages). */
export const COMPOSE_CHANNELS = ['sms', 'mms', 'whatsapp', 'email', 'google_rcs'] as const;
export type ComposeChannel = (typeof COMPOSE_CHANNELS)[number];

/** A person of the business (`GET /business/members`). */
export type Member = MemberDto;
