import { z } from 'zod';
import {
  CLOCK_TIME,
  HOLIDAYS_MAX,
  periodsProblem,
  REPLY_TIMES,
  WEEKDAYS,
  type Weekday,
} from '../rules/opening-hours.ts';
import { TEMPLATE_PLACEHOLDERS, unknownPlaceholders } from '../rules/placeholders.ts';
import { EmailField, optionalText, PhoneField, pageOf, Timestamp, TimeZoneField } from './fields.ts';
import { Uuid } from './ids.ts';

/** The longest missed-call text: three SMS segments. */
export const MISSED_CALL_TEXT_MAX = 459;

const Period = z.strictObject({
  open: z.string().regex(CLOCK_TIME, 'Give opening times as HH:MM, like 09:00.'),
  close: z.string().regex(CLOCK_TIME, 'Give closing times as HH:MM, like 17:00 (24:00 for midnight).'),
});
const Day = z
  .array(Period)
  .max(6, 'A day can have at most 6 open periods.')
  .superRefine((periods, ctx) => {
    const problem = periodsProblem(periods);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/** A location's weekly hours: every day named, an empty list for a closed day. */
export const OpeningHoursField = z.strictObject(
  Object.fromEntries(WEEKDAYS.map((day) => [day, Day])) as Record<Weekday, typeof Day>,
);

const Holiday = z.strictObject({
  date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'Give holidays as dates, like 2026-12-25.')
    .refine((v) => {
      const day = new Date(`${v}T00:00:00Z`);
      return !Number.isNaN(day.getTime()) && day.toISOString().startsWith(v);
    }, 'That holiday is not a real date.'),
  name: optionalText(100).optional(),
});

/** Days the location is closed whatever its hours say, each once, kept in date order. */
export const HolidaysField = z
  .array(Holiday)
  .max(HOLIDAYS_MAX, `A location can keep at most ${HOLIDAYS_MAX} holidays.`)
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    for (const h of list) {
      if (seen.has(h.date)) ctx.addIssue({ code: 'custom', message: `${h.date} is listed twice.` });
      seen.add(h.date);
    }
  })
  .transform((list) =>
    list.map((h) => ({ date: h.date, name: h.name ?? null })).sort((a, b) => a.date.localeCompare(b.date)),
  );

const fields = {
  address: optionalText(500).optional(),
  precedence: z.number().int().min(0).max(100_000).optional(),
  timezone: TimeZoneField.nullable().optional(),
  phone_number: PhoneField.nullable().optional(),
  email_address: EmailField.nullable().optional(),
  /** null: always open. */
  opening_hours: OpeningHoursField.nullable().optional(),
  reply_time: z.enum(REPLY_TIMES).nullable().optional(),
  holidays: HolidaysField.optional(),
  /** Texted to a caller nobody answered; blank or null: no text. */
  missed_call_text: optionalText(MISSED_CALL_TEXT_MAX)
    .refine((text) => !text || unknownPlaceholders(text).length === 0, {
      message: `Only these placeholders can be used: ${TEMPLATE_PLACEHOLDERS.map((p) => `{${p}}`).join(', ')}.`,
    })
    .optional(),
};

/** `POST /business/locations`. */
export const CreateLocationRequest = z.strictObject({ name: z.string().trim().min(1).max(200), ...fields });
export type LocationInput = z.input<typeof CreateLocationRequest>;

/** `PATCH /business/locations/{id}`: any of the fields; a null name leaves the location unnamed. */
export const UpdateLocationRequest = z.strictObject({
  name: z.string().trim().min(1).max(200).nullable().optional(),
  ...fields,
});
export type LocationPatch = z.input<typeof UpdateLocationRequest>;

/** A location as the location routes answer it: the one location shape of the API. */
export const Location = z.object({
  id: z.string(),
  business_id: z.string(),
  name: z.string().nullable(),
  address: z.string().nullable(),
  precedence: z.number(),
  timezone: z.string().nullable(),
  phone_number: z.string().nullable(),
  email_address: z.string().nullable(),
  google_place_id: z.string().nullable(),
  review_message: z.string().nullable(),
  review_link: z.string().nullable(),
  opening_hours: OpeningHoursField.nullable(),
  reply_time: z.enum(REPLY_TIMES).nullable(),
  holidays: z.array(z.object({ date: z.string(), name: z.string().nullable() })),
  missed_call_text: z.string().nullable(),
  /** A card surcharge on this location's invoices (`POST /business/toggle-stripe-charge-rate/{id}`). */
  card_surcharge: z.object({ enabled: z.boolean(), rate_bps: z.number() }),
  assigned_count_open: z.number(),
  assigned_count_closed: z.number(),
  unassigned_count_open: z.number(),
  unassigned_count_closed: z.number(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type LocationJson = z.input<typeof Location>;
export const LocationPage = pageOf(Location);

/** `GET /email/inbound-address?location_id=`: the address that forwards into a location's inbox. */
export const InboundAddressQuery = z.strictObject({ location_id: Uuid.optional() });
export const InboundAddress = z.object({ location_id: z.string(), address: z.string() });

/** `GET /public-holidays/places`: the countries (ISO 3166 codes) and their regions whose holidays are known. */
export const PublicHolidayPlaces = z.object({
  countries: z.array(
    z.object({
      code: z.string(),
      name: z.string(),
      regions: z.array(z.object({ code: z.string(), name: z.string() })),
    }),
  ),
});
export type PublicHolidayPlacesDto = z.infer<typeof PublicHolidayPlaces>;

/** `GET /public-holidays?country=AU&region=VIC&year=2027`. */
export const PublicHolidaysQuery = z.strictObject({
  country: z
    .string()
    .regex(/^[A-Za-z]{2}$/, 'The country is a two-letter code, such as AU.')
    .transform((v) => v.toUpperCase()),
  region: z
    .string()
    .regex(/^[A-Za-z0-9]{1,10}$/, 'The region is a short code, such as VIC.')
    .transform((v) => v.toUpperCase())
    .optional(),
  year: z.coerce
    .number('The year is a number, such as 2027.')
    .int('The year is a whole number, such as 2027.')
    .min(2000, 'Choose a year from 2000 to 2100.')
    .max(2100, 'Choose a year from 2000 to 2100.'),
});
export type PublicHolidaysQuery = z.input<typeof PublicHolidaysQuery>;

/** Public holidays of a place and year: each day once (names of one day joined), in date order. */
export const PublicHolidays = z.object({
  items: z.array(z.object({ date: z.string(), name: z.string() })),
});
export type PublicHolidaysDto = z.infer<typeof PublicHolidays>;
