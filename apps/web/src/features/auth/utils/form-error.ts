import { isApiError } from '../../../lib/api-error.ts';
import { failureText } from '../../../lib/failure-text.ts';

/**
 * Why a sign-up step failed, for the form: a refused field (400) reads as the field's own message ("Please enter
 * a valid mobile number…"), without the API's "Invalid body: mobile:" framing; anything else as usual.
 */
export function formErrorText(error: unknown): string {
  if (isApiError(error) && error.status === 400 && error.message) {
    return error.message
      .replace(/^Invalid [a-z]+: /, '')
      .split('; ')
      .map((part) => part.replace(/^[\w.]+: /, ''))
      .join(' ');
  }
  return failureText(error);
}
