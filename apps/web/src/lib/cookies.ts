import {
  ACCESS_COOKIE_DAYS,
  COOKIE_NAMES,
  DEFAULT_COOKIE_DAYS,
  KEY_IV_COOKIE_DAYS,
} from '@switchboard/shared';
import Cookies from 'js-cookie';

/** The selected business and location, sent back as BID/LID on the next login to restore the selection. */
export const SELECTION_COOKIES = { business: 'BID', location: 'LID' } as const;

export type CookieName =
  | (typeof COOKIE_NAMES)[keyof typeof COOKIE_NAMES]
  | (typeof SELECTION_COOKIES)[keyof typeof SELECTION_COOKIES];

/** Spec §9: access 14 days, key and iv 1 year, everything else about 30 days. */
export const COOKIE_DAYS: Readonly<Record<CookieName, number>> = {
  access: ACCESS_COOKIE_DAYS,
  key: KEY_IV_COOKIE_DAYS,
  iv: KEY_IV_COOKIE_DAYS,
  owner: DEFAULT_COOKIE_DAYS,
  referalPopup: DEFAULT_COOKIE_DAYS,
  BID: DEFAULT_COOKIE_DAYS,
  LID: DEFAULT_COOKIE_DAYS,
};

/** Spec §8: what a 401 clears. */
export const SESSION_EXPIRED_COOKIES: readonly CookieName[] = [
  COOKIE_NAMES.access,
  COOKIE_NAMES.referalPopup,
  COOKIE_NAMES.key,
  COOKIE_NAMES.iv,
];

/**
 * Everything that says who is signed in, cleared on log out and when the user has no business. BID/LID
 * stay so the next login lands on the same business and location.
 */
export const CREDENTIAL_COOKIES: readonly CookieName[] = [...SESSION_EXPIRED_COOKIES, COOKIE_NAMES.owner];

export type CookieWrite = { name: CookieName; value: string; days: number };

/** A cookie write with the lifetime spec §9 gives that cookie. */
export const cookieWrite = (name: CookieName, value: string): CookieWrite => ({
  name,
  value,
  days: COOKIE_DAYS[name],
});
const write = cookieWrite;

export function loginCookieWrites(login: { token: string; key: string; iv: string }): CookieWrite[] {
  return [write('access', login.token), write('key', login.key), write('iv', login.iv)];
}

export type Selection = { businessId: string; locationId: string | null; isOwner: boolean };

export function selectionCookieWrites(selection: Selection): CookieWrite[] {
  const writes = [write('BID', selection.businessId), write('owner', String(selection.isOwner))];
  if (selection.locationId) writes.push(write('LID', selection.locationId));
  return writes;
}

function attributes(days?: number): Cookies.CookieAttributes {
  const secure = typeof location !== 'undefined' && location.protocol === 'https:';
  return { path: '/', sameSite: 'lax', secure, ...(days === undefined ? {} : { expires: days }) };
}

export function writeCookies(writes: readonly CookieWrite[]): void {
  for (const { name, value, days } of writes) Cookies.set(name, value, attributes(days));
}

export function readCookie(name: CookieName): string | undefined {
  return Cookies.get(name);
}

export function removeCookies(names: readonly CookieName[]): void {
  for (const name of names) Cookies.remove(name, attributes());
}

export function getAccessToken(): string | undefined {
  return readCookie('access');
}

export function setAccessToken(token: string): void {
  writeCookies([write('access', token)]);
}

export function hasSession(): boolean {
  return Boolean(getAccessToken());
}
