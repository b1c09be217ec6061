import { errorCode } from '@switchboard/shared';
import { isApiError } from './api-error.ts';

/**
 * Why a call failed, in words for the place on screen where it failed: a lost connection is not a server
 * fault, a server fault (5xx) carries its error code (spec §8's `Error Code: 400-{request id}`) so a report
 * can name it, and a refusal (4xx, a value the server would not take among them) says what the server said.
 */
export function failureText(error: unknown): string {
  if (!isApiError(error)) return 'Something went wrong in this page. Reload it and try again.';
  if (error.status === undefined) {
    if (error.transport === 'timeout') return 'The server took too long to answer. Try again.';
    return 'Switchboard could not be reached. Check your connection and try again.';
  }
  if (error.status >= 500)
    return `Something went wrong on our side (${errorCode(error.requestId)}). Try again in a moment.`;
  return error.message || 'Please check the details and try again.';
}
