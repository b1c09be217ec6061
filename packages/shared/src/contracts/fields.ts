import { AsYouType, type CountryCode, parsePhoneNumberFromString } from 'libphonenumber-js';
import { z } from 'zod';
import { DEFAULT_PAGE_SIZE } from '../constants.ts';
import { isValidEmail, isValidUrl, unwrapMarkdownLink } from '../rules/validators.ts';
import { PathId } from './ids.ts';

/**
 * The building blocks of every route's contract: field rules (what a person may type), paging, ids in paths,
 * moments, and the `{ body }` envelope. The server validates with them; the web app and tests read the types.
 */

/** Numbers written without a country code are read as Australian, where the product started. */
export const DEFAULT_PHONE_COUNTRY: CountryCode = 'AU';
export const MAX_PAGE_SIZE = 100;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids arrive in paths as free text: anything that is not a uuid names nothing, so callers answer 404. */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** The phone number in E.164, or undefined when it is not a possible number for its country. */
export function normalisePhone(
  value: string,
  country: CountryCode = DEFAULT_PHONE_COUNTRY,
): string | undefined {
  const parsed = parsePhoneNumberFromString(value, country);
  return parsed?.isValid() ? parsed.number : undefined;
}

/** A number as it is being typed, spaced the way the country writes it ('0412 345 6…', '+61 412 345…'). */
export function formatPhoneAsTyped(value: string, country: CountryCode = DEFAULT_PHONE_COUNTRY): string {
  const digits = value.replace(/[^\d+*#]/g, '');
  if (!digits || /[*#]/.test(digits)) return digits;
  return new AsYouType(country).input(digits);
}

/**
 * The IANA name as the runtime spells it ('australia/melbourne' → 'Australia/Melbourne'), or undefined.
 * Fixed offsets such as '+10:00' are refused: they do not follow daylight saving.
 */
export function canonicalTimeZone(value: string): string | undefined {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(value)) return undefined;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: value }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

export const PhoneField = z
  .string()
  .trim()
  .max(40)
  .transform((value, ctx) => {
    const phone = normalisePhone(value);
    if (phone) return phone;
    ctx.addIssue({
      code: 'custom',
      message: 'Please enter a valid phone number, such as +61 491 570 156 or 0491 570 156',
    });
    return z.NEVER;
  });

export const EmailField = z
  .string()
  .trim()
  .max(320)
  .refine(isValidEmail, 'Please enter a valid email address, such as name@example.com');

/** A password someone chooses (sign-up, a reset): the same rule everywhere a new one is set. */
export const NewPassword = z.string().min(8, 'The password must be at least 8 characters').max(1024);

export const TimeZoneField = z
  .string()
  .trim()
  .max(100)
  .transform((value, ctx) => {
    const zone = canonicalTimeZone(value);
    if (zone) return zone;
    ctx.addIssue({ code: 'custom', message: 'Please enter an IANA time zone, such as Australia/Melbourne' });
    return z.NEVER;
  });

/** Spec §5: parses with a host, after unwrapping a markdown link `[text](url)`; the unwrapped URL is kept. */
export const UrlField = z
  .string()
  .trim()
  .max(2000)
  .transform(unwrapMarkdownLink)
  .refine(isValidUrl, 'Please enter a valid URL, such as https://example.com');

/**
 * A website's origin (`https://shop.example.com`, a port if it has one): what a URL of it is reduced to.
 * A path, query or fragment is refused rather than silently dropped, so the owner sees what is kept.
 */
export const OriginField = z
  .string()
  .trim()
  .max(300)
  .transform((value, ctx) => {
    let url: URL | null = null;
    try {
      url = new URL(value);
    } catch {
      url = null;
    }
    if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password) {
      ctx.addIssue({
        code: 'custom',
        message: `${value} is not a website address such as https://shop.example.com`,
      });
      return z.NEVER;
    }
    if (url.pathname !== '/' || url.search || url.hash) {
      ctx.addIssue({ code: 'custom', message: `Give the site only, without a page: ${url.origin}` });
      return z.NEVER;
    }
    return url.origin;
  });

/** Free text that a person may clear: blank becomes null. */
export const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .transform((value) => (value === '' ? null : value))
    .nullable();

/** `/things/:id` */
export const IdParams = z.strictObject({ id: PathId });

/** `?page=&page_size=` on every list. */
export const PageQuery = z.strictObject({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  page_size: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
});
export type Page = z.infer<typeof PageQuery>;

export type PageOf<T> = { items: T[]; page: number; page_size: number; total: number };

/** A page of a list as answered. */
export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), page: z.number(), page_size: z.number(), total: z.number() });

/**
 * A moment: ISO 8601 text on the wire; on the server a Date (or text already in ISO form, as raw SQL and
 * cached rows give it). Read back by a client it is a Date.
 */
export const Timestamp = z.codec(z.string(), z.union([z.date(), z.string()]), {
  decode: (text) => new Date(text),
  encode: (value) => (value instanceof Date ? value : new Date(value)).toISOString(),
});

/** The `{ body }` envelope every API answer comes in (DESIGN §7). */
export const answer = <T extends z.ZodType>(body: T) => z.object({ body });

/** What a delete answers: the id that is gone. */
export const Deleted = z.object({ id: z.string(), deleted: z.literal(true) });
