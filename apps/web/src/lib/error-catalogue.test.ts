import { describe, expect, it } from 'vitest';
import { decideErrorAction, feedbackUrl, genericNotice } from './error-catalogue.ts';

const SESSION_EXPIRED = 'Time to refresh and log back in - your session has ticked out.';

describe('error catalogue (spec §8)', () => {
  it('401: clears access, referalPopup, key and iv, reports, says the session ticked out and goes to /', () => {
    const action = decideErrorAction({
      status: 401,
      message: 'Your session has ended.',
      code: 'session_expired',
    });
    expect(action.notice).toEqual({ kind: 'session-expired', title: SESSION_EXPIRED });
    expect([...action.clearCookies].sort()).toEqual(['access', 'iv', 'key', 'referalPopup']);
    expect(action.redirectTo).toBe('/');
    expect(action.report).toBe(true);
  });

  it('401 without a token (unauthenticated) is the same expired-session path', () => {
    expect(decideErrorAction({ status: 401, code: 'unauthenticated' }).notice?.kind).toBe('session-expired');
  });

  it('a wrong password on the login form is shown as the server says, without leaving the page', () => {
    const action = decideErrorAction({
      status: 401,
      code: 'invalid_credentials',
      message: 'The email or password is incorrect.',
    });
    expect(action.notice).toEqual({ kind: 'server-message', title: 'The email or password is incorrect.' });
    expect(action.redirectTo).toBeNull();
    expect(action.clearCookies).toEqual([]);
  });

  it.each([403, 404, 409, 422, 429])('%i shows the server-supplied message', (status) => {
    const action = decideErrorAction({ status, message: `Message for ${status}`, code: 'x' });
    expect(action.notice).toEqual({ kind: 'server-message', title: `Message for ${status}` });
    expect(action.redirectTo).toBeNull();
    expect(action.clearCookies).toEqual([]);
  });

  it.each([403, 404, 409, 422, 429])('%i without a message still says something useful', (status) => {
    const notice = decideErrorAction({ status }).notice;
    expect(notice?.kind).toBe('server-message');
    expect(notice?.title).toMatch(/\w+/);
  });

  it('422 is not reported to error tracking; 403, 404, 409 and 429 are', () => {
    expect(decideErrorAction({ status: 422, message: 'Bad' }).report).toBe(false);
    for (const status of [403, 404, 409, 429])
      expect(decideErrorAction({ status, message: 'x' }).report).toBe(true);
  });

  it("'Enquiry not found!' is shown but not reported", () => {
    const action = decideErrorAction({
      status: 404,
      message: 'Enquiry not found!',
      code: 'enquiry_not_found',
    });
    expect(action.notice?.title).toBe('Enquiry not found!');
    expect(action.report).toBe(false);
  });

  it("code 'no_business' clears the tokens and goes to / with the server's message", () => {
    const action = decideErrorAction({
      status: 403,
      code: 'no_business',
      message: 'Not linked to a business.',
    });
    expect(action.notice).toEqual({ kind: 'server-message', title: 'Not linked to a business.' });
    expect(action.clearCookies).toEqual(expect.arrayContaining(['access', 'key', 'iv', 'owner']));
    expect(action.redirectTo).toBe('/');
  });

  it('a refused value (400 validation_failed) shows the server’s words and is not reported', () => {
    const action = decideErrorAction({
      status: 400,
      code: 'validation_failed',
      message: 'Review link: Give the review link as an https:// address.',
      requestId: 'req-7',
    });
    expect(action.notice).toEqual({
      kind: 'server-message',
      title: 'Review link: Give the review link as an https:// address.',
    });
    expect(action.report).toBe(false);
    expect(action.redirectTo).toBeNull();
  });

  it('any other 400 keeps spec §8’s notice', () => {
    expect(decideErrorAction({ status: 400, code: 'bad_request', message: 'Bad JSON' }).notice?.kind).toBe(
      'generic',
    );
  });

  it.each([400, 413, 500, 502, 503])(
    '%i gets "Well, this is embarrassing!" with the request id as the error code',
    (status) => {
      const action = decideErrorAction({ status, message: 'internal', requestId: 'req-42' });
      expect(action.notice).toEqual({
        kind: 'generic',
        title: 'Well, this is embarrassing!',
        description: expect.stringContaining('engineers have been notified'),
        errorCode: 'Error Code: 400-req-42',
        code: '400-req-42',
      });
      expect(action.report).toBe(true);
      expect(action.redirectTo).toBeNull();
    },
  );

  it('a generic error without a request-id header says Unknown', () => {
    expect(decideErrorAction({ status: 500, requestId: null }).notice).toMatchObject({
      errorCode: 'Error Code: 400-Unknown',
    });
  });

  it('Network Error is rejected silently and not reported', () => {
    expect(decideErrorAction({ transport: 'network' })).toEqual({
      notice: null,
      report: false,
      clearCookies: [],
      redirectTo: null,
    });
  });

  it('a request we cancelled is silent', () => {
    expect(decideErrorAction({ transport: 'canceled' }).notice).toBeNull();
    expect(decideErrorAction({ transport: 'canceled' }).report).toBe(false);
  });

  it('a timeout is reported; its notice waits until the query retries run out', () => {
    const action = decideErrorAction({ transport: 'timeout' });
    expect(action.report).toBe(true);
    expect(action.notice).toBeNull();
  });
});

describe('Send Feedback', () => {
  it('reloads the current path with error_code, debug_code and mode=report-error, keeping other params', () => {
    const url = feedbackUrl({ pathname: '/locations', search: '?page=2' }, '400-req-42', 'OLAB250101-1');
    const parsed = new URL(url, 'http://x');
    expect(parsed.pathname).toBe('/locations');
    expect(Object.fromEntries(parsed.searchParams)).toEqual({
      page: '2',
      error_code: '400-req-42',
      debug_code: 'OLAB250101-1',
      mode: 'report-error',
    });
  });

  it('the generic notice carries the code alone for the report', () => {
    expect(genericNotice('abc').code).toBe('400-abc');
    expect(genericNotice(undefined).code).toBe('400-Unknown');
  });
});
