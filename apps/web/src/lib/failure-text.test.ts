import { describe, expect, it } from 'vitest';
import { ApiError } from './api-error.ts';
import { failureText } from './failure-text.ts';

const failed = (facts: ConstructorParameters<typeof ApiError>[0]) => new ApiError(facts);

describe('failureText', () => {
  it('shows a refused value in the server’s words, never as a fault on our side', () => {
    const error = failed({
      status: 400,
      code: 'validation_failed',
      message: 'Review link: Give the review link as an https:// address.',
      fields: { review_link: 'Give the review link as an https:// address.' },
      requestId: 'req-1',
      notified: true,
    });
    expect(failureText(error)).toBe('Review link: Give the review link as an https:// address.');
  });

  it.each([400, 403, 404, 409, 413, 422, 429])('%i shows what the server said', (status) => {
    const error = failed({
      status,
      code: 'x',
      message: `Said for ${status}.`,
      requestId: 'req-2',
      notified: true,
    });
    expect(failureText(error)).toBe(`Said for ${status}.`);
  });

  it.each([500, 502, 503])('%i is a fault on our side, with its error code', (status) => {
    const error = failed({ status, message: 'internal', requestId: 'req-3', notified: true });
    expect(failureText(error)).toBe(
      'Something went wrong on our side (Error Code: 400-req-3). Try again in a moment.',
    );
  });

  it('a lost connection and a slow server are neither', () => {
    expect(failureText(failed({ transport: 'network', message: 'Network Error', notified: false }))).toMatch(
      /could not be reached/,
    );
    expect(failureText(failed({ transport: 'timeout', message: 'timeout', notified: false }))).toMatch(
      /took too long/,
    );
  });

  it('a fault in the page itself says to reload', () => {
    expect(failureText(new TypeError('x is undefined'))).toMatch(/Reload it/);
  });
});
