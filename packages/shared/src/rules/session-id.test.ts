import { afterEach, describe, expect, it, vi } from 'vitest';
import { nonce, sessionId } from './session-id.ts';

describe('Session id: "first 2 and last 2 characters of the user id in upper case plus a YYMMDD date"', () => {
  it.each([
    { userId: 'abc123xyz', date: new Date(2024, 0, 5, 9, 30), id: 'ABYZ240105' },
    { userId: 'f47ac10b-58cc-4372-a567-0e02b2c3d479', date: new Date(2024, 11, 31), id: 'F479241231' },
    { userId: 1234567, date: new Date(1999, 11, 31, 23, 59, 59), id: '1267991231' },
    { userId: 'Ab', date: new Date(2030, 5, 15), id: 'ABAB300615' },
    { userId: 'abc', date: new Date(2024, 1, 29), id: 'ABBC240229' },
  ])('builds $id from user $userId', ({ userId, date, id }) => {
    expect(sessionId(userId, date)).toBe(id);
  });

  it('rejects an empty user id', () => {
    expect(() => sessionId('', new Date(2024, 0, 5))).toThrow(RangeError);
  });
});

describe('Nonce: "128 random alphanumeric characters"', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it.each([
    { length: undefined, expected: 128 },
    { length: 1, expected: 1 },
    { length: 32, expected: 32 },
    { length: 0, expected: 0 },
    { length: 70_000, expected: 70_000 },
  ])('gives $expected alphanumeric characters when asked for $length', ({ length, expected }) => {
    const value = nonce(length);
    expect(value).toHaveLength(expected);
    expect(value).toMatch(/^[A-Za-z0-9]*$/);
  });

  it('differs between calls', () => {
    expect(nonce()).not.toBe(nonce());
  });

  it.each([
    { bytes: [0, 25, 26, 51, 52, 61], expected: 'AZaz09' },
    // 62 wraps to 'A'; 247 is the last byte kept (247 % 62 = 61); 248 and above would favour A-H.
    { bytes: [248, 62, 255, 247, 250, 1], expected: 'A9B' },
  ])(
    'maps random bytes $bytes to $expected, dropping bytes that would bias the result',
    ({ bytes, expected }) => {
      const queue = [...bytes];
      vi.spyOn(globalThis.crypto, 'getRandomValues').mockImplementation((array) => {
        if (array instanceof Uint8Array) array.set(array.map(() => queue.shift() ?? 0));
        return array;
      });
      expect(nonce(expected.length)).toBe(expected);
    },
  );

  it.each([-1, 1.5, Number.NaN])('rejects a length of %s', (length) => {
    expect(() => nonce(length)).toThrow(RangeError);
  });
});
