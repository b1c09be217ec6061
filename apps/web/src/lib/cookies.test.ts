import { describe, expect, it } from 'vitest';
import {
  COOKIE_DAYS,
  CREDENTIAL_COOKIES,
  loginCookieWrites,
  SESSION_EXPIRED_COOKIES,
  selectionCookieWrites,
} from './cookies.ts';

describe('cookie lifetimes (spec §9)', () => {
  it.each([
    ['access', 14],
    ['key', 365],
    ['iv', 365],
    ['owner', 30],
    ['referalPopup', 30],
    ['BID', 30],
    ['LID', 30],
  ] as const)('%s lasts %i days', (name, days) => {
    expect(COOKIE_DAYS[name]).toBe(days);
  });

  it('login stores the access token for 14 days and key and iv for a year', () => {
    expect(loginCookieWrites({ token: 't', key: 'k', iv: 'i' })).toEqual([
      { name: 'access', value: 't', days: 14 },
      { name: 'key', value: 'k', days: 365 },
      { name: 'iv', value: 'i', days: 365 },
    ]);
  });

  it('the selection remembers business, location and the owner flag for about 30 days', () => {
    expect(selectionCookieWrites({ businessId: 'b1', locationId: 'l1', isOwner: true })).toEqual([
      { name: 'BID', value: 'b1', days: 30 },
      { name: 'owner', value: 'true', days: 30 },
      { name: 'LID', value: 'l1', days: 30 },
    ]);
  });

  it('a business without locations writes no LID', () => {
    const names = selectionCookieWrites({ businessId: 'b1', locationId: null, isOwner: false }).map(
      (w) => w.name,
    );
    expect(names).toEqual(['BID', 'owner']);
  });
});

describe('cookies cleared', () => {
  it('a 401 clears access, referalPopup, key and iv (spec §8)', () => {
    expect([...SESSION_EXPIRED_COOKIES].sort()).toEqual(['access', 'iv', 'key', 'referalPopup']);
  });

  it('log out also forgets the owner flag but keeps the business and location selection', () => {
    expect(CREDENTIAL_COOKIES).toContain('owner');
    expect(CREDENTIAL_COOKIES).not.toContain('BID');
    expect(CREDENTIAL_COOKIES).not.toContain('LID');
  });
});
