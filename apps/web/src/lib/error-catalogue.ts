import {
  ENQUIRY_NOT_FOUND,
  errorCode,
  GENERIC_ERROR_TITLE,
  SESSION_EXPIRED_NOTICE,
} from '@switchboard/shared';
import { type CookieName, CREDENTIAL_COOKIES, SESSION_EXPIRED_COOKIES } from './cookies.ts';

/** What is known about a failed call, independent of the HTTP library. */
export type ErrorFacts = {
  /** HTTP status; undefined when no response arrived. */
  status?: number;
  /** `message` from the `{ message, code }` error body. */
  message?: string;
  /** `code` from the error body, e.g. 'no_business'. */
  code?: string;
  /** The `request-id` response header. */
  requestId?: string | null;
  /** `fields` from the error body: what is wrong with each field, keyed by its dotted path in the request. */
  fields?: Readonly<Record<string, string>>;
  /** Why no response arrived: 'network', 'timeout' or 'canceled'. */
  transport?: 'network' | 'timeout' | 'canceled';
};

export type GenericNotice = {
  kind: 'generic';
  title: string;
  description: string;
  /** 'Error Code: 400-{request id}' as shown to the person. */
  errorCode: string;
  /** The code alone ('400-{request id}'), sent with feedback. */
  code: string;
};

export type ErrorNotice =
  | { kind: 'session-expired'; title: string }
  | { kind: 'server-message'; title: string }
  | GenericNotice;

export type ErrorAction = {
  notice: ErrorNotice | null;
  /** Sent to error tracking. */
  report: boolean;
  clearCookies: readonly CookieName[];
  redirectTo: '/' | null;
};

export const GENERIC_ERROR_DESCRIPTION =
  'Something went wrong on our side. Our engineers have been notified and are looking into it.';

/** The statuses whose body message is written for people and shown as it is (spec §8). */
export const SERVER_MESSAGE_STATUSES = [403, 404, 409, 422, 429] as const;

const FALLBACK_MESSAGES: Record<(typeof SERVER_MESSAGE_STATUSES)[number], string> = {
  403: 'You do not have permission to do that.',
  404: 'We could not find what you were looking for.',
  409: 'That clashes with a change made elsewhere. Refresh and try again.',
  422: 'Please check the details and try again.',
  429: 'Too many requests. Please wait a moment and try again.',
};

export function genericNotice(requestId?: string | null): GenericNotice {
  const shown = errorCode(requestId);
  return {
    kind: 'generic',
    title: GENERIC_ERROR_TITLE,
    description: GENERIC_ERROR_DESCRIPTION,
    errorCode: shown,
    code: shown.replace(/^Error Code:\s*/, ''),
  };
}

const none = { clearCookies: [], redirectTo: null } as const;

function isServerMessageStatus(status: number): status is (typeof SERVER_MESSAGE_STATUSES)[number] {
  return (SERVER_MESSAGE_STATUSES as readonly number[]).includes(status);
}

/** Spec §8, the error catalogue: what the person sees and what happens, for any failed call. */
export function decideErrorAction(facts: ErrorFacts): ErrorAction {
  const { status, message, code } = facts;

  if (status === undefined) {
    switch (facts.transport) {
      // We aborted it ourselves (a query key changed, a page closed): nothing went wrong.
      case 'canceled':
        return { notice: null, report: false, ...none };
      // 'Network Error' is rejected silently: the person can see they are offline.
      case 'network':
        return { notice: null, report: false, ...none };
      // Reported, but no notice yet: timed-out queries are retried, and the shared query handler shows
      // the notice once the retries run out.
      case 'timeout':
        return { notice: null, report: true, ...none };
      default:
        return { notice: genericNotice(facts.requestId), report: true, ...none };
    }
  }

  // A user with no selected business: clear tokens and go to '/', saying why.
  if (code === 'no_business') {
    return {
      notice: { kind: 'server-message', title: message ?? FALLBACK_MESSAGES[403] },
      report: false,
      clearCookies: CREDENTIAL_COOKIES,
      redirectTo: '/',
    };
  }

  if (status === 401) {
    // A wrong password on the login form is not an expired session: the form shows the server's words.
    if (code === 'invalid_credentials') {
      return {
        notice: { kind: 'server-message', title: message ?? 'Please log in again.' },
        report: false,
        ...none,
      };
    }
    return {
      notice: { kind: 'session-expired', title: SESSION_EXPIRED_NOTICE },
      report: true,
      clearCookies: SESSION_EXPIRED_COOKIES,
      redirectTo: '/',
    };
  }

  // A value the person typed that the server refused (`validation_failed`) is theirs to fix, not a fault: the
  // server's words, like a 422, and not reported. Other 400s keep spec §8's notice.
  if (status === 400 && code === 'validation_failed') {
    return {
      notice: { kind: 'server-message', title: message || FALLBACK_MESSAGES[422] },
      report: false,
      ...none,
    };
  }

  if (isServerMessageStatus(status)) {
    return {
      notice: { kind: 'server-message', title: message || FALLBACK_MESSAGES[status] },
      report: status !== 422 && message !== ENQUIRY_NOT_FOUND,
      ...none,
    };
  }

  return { notice: genericNotice(facts.requestId), report: true, ...none };
}

/** The page the 'Send Feedback' button reloads: the same path, with what the error report modal needs. */
export function feedbackUrl(
  current: { pathname: string; search: string },
  errorCodeValue: string,
  debugCode: string,
): string {
  const params = new URLSearchParams(current.search);
  params.set('error_code', errorCodeValue);
  params.set('debug_code', debugCode);
  params.set('mode', REPORT_ERROR_MODE);
  return `${current.pathname}?${params.toString()}`;
}

export const REPORT_ERROR_MODE = 'report-error';
