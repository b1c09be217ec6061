import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-error.ts';
import { formErrorText } from './form-error.ts';

describe('formErrorText', () => {
  it('reads a refused field as its own message', () => {
    const error = new ApiError({
      status: 400,
      notified: false,
      message: 'Invalid body: mobile: Please enter a valid mobile number; location.name: Please name it',
    });
    expect(formErrorText(error)).toBe('Please enter a valid mobile number Please name it');
  });

  it('says what the server said for a refusal', () => {
    expect(
      formErrorText(
        new ApiError({ status: 409, notified: false, message: 'We could not create an account.' }),
      ),
    ).toBe('We could not create an account.');
  });
});
