// Business constants and limits from spec §9, plus fixed texts from §3 and §8.

export const PRODUCT_NAME = 'Switchboard';
export const PRIMARY_COLOR = '#1E75FF';

export const HTTP_TIMEOUT_MS = 100_000;
export const AI_TIMEOUT_MS = 300_000;

export const DEFAULT_PAGE_SIZE = 10;
export const AI_MESSAGE_PAGE_SIZE = 10;

export const ACCESS_COOKIE_DAYS = 14;
export const KEY_IV_COOKIE_DAYS = 365;
export const DEFAULT_COOKIE_DAYS = 30;

export const COOKIE_NAMES = {
  access: 'access',
  referalPopup: 'referalPopup',
  key: 'key',
  iv: 'iv',
  owner: 'owner',
} as const;

/** Query-string names starting with any of these are collected and sent on registration. */
export const TRACKING_PREFIXES = ['utm_', 'time_of_', 'session_', 'gclid', 'fbclid', 'msclkid'] as const;

/** Pages embedded in other sites or the browser extension, where marketing scripts must not load. */
export const NO_MARKETING_PATHS = ['/widget', '/contact'] as const;
export const NO_MARKETING_PATH_FRAGMENT = 'extension';

export const TRIAL_TIMEZONE = 'Australia/Melbourne';
export const TRIAL_OFFSET_HOURS = 11;
export const ANALYTICS_TIMEZONE = 'Australia/Melbourne';
export const ANALYTICS_DEFAULT_DAYS = 7;

export const ERROR_NOTICE_SECONDS = 5;
export const ERROR_NOTICE_MAX = 1;
export const NOTICE_SECONDS = 4.5;

export const QUERY_MAX_RETRIES = 3;
export const QUERY_REFETCH_ON_WINDOW_FOCUS = false;

export const SERVICE_WORKER_RETRIES = 3;
export const SERVICE_WORKER_RETRY_BASE_MS = 1000;

export const PROGRESS_BAR = { start: 0.7, stopDelayMs: 200, height: 2 } as const;
export const MESSAGE_INPUT_HEIGHT = 150;

export const NONCE_LENGTH = 128;

export const SESSION_EXPIRED_NOTICE = 'Time to refresh and log back in - your session has ticked out.';
export const GENERIC_ERROR_TITLE = 'Well, this is embarrassing!';
export const ENQUIRY_NOT_FOUND = 'Enquiry not found!';
export const UNKNOWN_LOCATION = 'Unknown Location';
export const UNKNOWN_ADDRESS = 'Unknown Address';

/**
 * The sounds the app ships for a new enquiry or message (made by the browser, nothing to download); spec §4's
 * default is the long pop. A person may also upload a short sound of their own: `upload:<id>`.
 */
export const NOTIFICATION_SOUNDS = ['long-pop', 'chime', 'ding', 'knock'] as const;
export type NotificationSound = (typeof NOTIFICATION_SOUNDS)[number];
export const UPLOADED_SOUND = /^upload:([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;
