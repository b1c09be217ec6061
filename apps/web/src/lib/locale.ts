/**
 * The business's locale, which every date, amount and phone number on screen is written in: a clinic in
 * Melbourne reads "28 Nov 2026", "$120.00" and "0412 345 678" on every screen, whoever's browser shows it. Set by
 * the signed-in layout from the business's country; pages outside a business (sign-up, the pay page before it
 * knows) use the browser's own.
 */
let current: { country: string | null; locale: string | undefined } = { country: null, locale: undefined };

/** English as written in the country (the product speaks English); undefined (the browser's) when unknown. */
export function localeFor(country: string | null | undefined): string | undefined {
  if (!country || !/^[A-Z]{2}$/i.test(country)) return undefined;
  const tag = `en-${country.toUpperCase()}`;
  return Intl.DateTimeFormat.supportedLocalesOf([tag]).length ? tag : 'en';
}

export function setBusinessCountry(country: string | null | undefined): void {
  const upper = country ? country.toUpperCase() : null;
  if (upper === current.country) return;
  current = { country: upper, locale: localeFor(upper) };
}

export function businessLocale(): string | undefined {
  return current.locale;
}

export function businessCountry(): string | null {
  return current.country;
}
