import { describe, expect, it } from 'vitest';
import { ApiError } from './api-error.ts';
import { shouldRetry } from './query-client.ts';

const timeout = new ApiError({
  message: 'timeout of 100000ms exceeded',
  transport: 'timeout',
  notified: false,
});

describe('query retries (spec §8: only timeouts, at most 3 times)', () => {
  it('retries a timeout after the first, second and third failure', () => {
    expect([0, 1, 2].map((n) => shouldRetry(n, timeout))).toEqual([true, true, true]);
  });

  it('gives up after three retries', () => {
    expect(shouldRetry(3, timeout)).toBe(false);
    expect(shouldRetry(4, timeout)).toBe(false);
  });

  it('matches any error whose message contains "timeout"', () => {
    expect(shouldRetry(0, new Error('Gateway timeout from upstream'))).toBe(true);
  });

  it.each([
    ['a server error', new ApiError({ message: 'Something went wrong', status: 500, notified: true })],
    ['a 404', new ApiError({ message: 'Location not found.', status: 404, notified: true })],
    ['a network error', new Error('Network Error')],
    ['a capitalised Timeout (the rule is case-sensitive)', new Error('Timeout')],
    ['a thrown string', 'timeout'],
  ])('does not retry %s', (_label, error) => {
    expect(shouldRetry(0, error)).toBe(false);
  });
});
