import type { PublicHolidayPlacesDto, PublicHolidaysDto } from '@switchboard/shared';
import Holidays from 'date-holidays';
import { AppError } from '../../errors.ts';

/** The kinds of holiday a business usually closes for: public holidays, and bank holidays where they are kept. */
const CLOSED_FOR = new Set(['public', 'bank']);

let places: PublicHolidayPlacesDto | null = null;

/**
 * Every country whose holidays the bundled calendar knows (`date-holidays`, kept offline, no lookups), with its
 * regions, named in English; read once.
 */
export function publicHolidayPlaces(): PublicHolidayPlacesDto {
  if (places) return places;
  const calendar = new Holidays();
  const countries = Object.entries(calendar.getCountries('en'))
    .map(([code, name]) => ({
      code,
      name,
      regions: Object.entries(calendar.getStates(code, 'en') ?? {})
        .map(([regionCode, regionName]) => ({ code: regionCode, name: regionName }))
        .sort((a, b) => a.name.localeCompare(b.name)),
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
  places = { countries };
  return places;
}

/** A place's public holidays of a year; an unknown country or region is 404 with what was not found. */
export function publicHolidays(query: { country: string; region?: string; year: number }): PublicHolidaysDto {
  const country = publicHolidayPlaces().countries.find((c) => c.code === query.country);
  if (!country) throw new AppError('not_found', `No holidays are known for the country ${query.country}.`);
  if (query.region && !country.regions.some((r) => r.code === query.region))
    throw new AppError('not_found', `${country.name} has no region ${query.region}.`);
  const calendar = query.region
    ? new Holidays(query.country, query.region, { languages: ['en'] })
    : new Holidays(query.country, { languages: ['en'] });
  const days = new Map<string, string[]>();
  for (const h of calendar.getHolidays(query.year, 'en') ?? []) {
    if (!CLOSED_FOR.has(h.type)) continue;
    // '2027-12-25 00:00:00': the day as the place reckons it.
    const date = h.date.slice(0, 10);
    const names = days.get(date) ?? [];
    if (!names.includes(h.name)) names.push(h.name);
    days.set(date, names);
  }
  return {
    items: [...days.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([date, names]) => ({ date, name: names.join(' / ') })),
  };
}
