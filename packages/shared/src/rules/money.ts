import { data as iso4217 } from 'currency-codes';

/**
 * Codes on ISO 4217's list of active codes that are not money an invoice is written in: funds (BOV, CHE, CHW,
 * CLF, COU, MXV, USN, UYI, UYW), precious metals, bond-market units, the SDR, the testing code and "no currency".
 */
const NOT_MONEY = new Set([
  'BOV',
  'CHE',
  'CHW',
  'CLF',
  'COU',
  'MXV',
  'USN',
  'UYI',
  'UYW',
  'XAG',
  'XAU',
  'XBA',
  'XBB',
  'XBC',
  'XBD',
  'XDR',
  'XPD',
  'XPT',
  'XSU',
  'XTS',
  'XUA',
  'XXX',
]);

export type Currency = {
  /** ISO 4217 alphabetic code, e.g. `AUD`. */
  code: string;
  name: string;
  /** ISO 4217 minor units: 2 for AUD (cents), 0 for JPY, 3 for KWD (fils). */
  minor_units: number;
};

/** The currencies an invoice can be in: ISO 4217's active codes (the `currency-codes` data), money only. */
export const CURRENCIES: readonly Currency[] = iso4217
  .filter((c) => !NOT_MONEY.has(c.code))
  .map((c) => ({ code: c.code, name: c.currency, minor_units: c.digits }))
  .sort((a, b) => a.code.localeCompare(b.code));

const BY_CODE = new Map(CURRENCIES.map((c) => [c.code, c]));

/** Whether `code` (any case) is an active ISO 4217 currency an invoice can be in. */
export function isCurrencyCode(code: string): boolean {
  return BY_CODE.has(code.toUpperCase());
}

/**
 * How many decimals the currency's minor unit has (ISO 4217). A code that is not on the list (a row written
 * before codes were checked) is read as two, so it still shows.
 */
export function minorUnits(currency: string): number {
  return BY_CODE.get(currency.toUpperCase())?.minor_units ?? 2;
}

/** An amount in the currency's minor units as money people read (`$1,234.50`, `JPY 1,000`, `KWD 5.120`), in `locale`. */
export function formatMoney(minor: number, currency: string, locale = 'en-AU'): string {
  const digits = minorUnits(currency);
  return new Intl.NumberFormat(locale, {
    style: 'currency',
    currency: currency.toUpperCase(),
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(minor / 10 ** digits);
}

/** Minor units as a plain decimal in the currency's own decimals, for spreadsheets: `1234.50`, `1000`, `5.120`. */
export function formatDecimal(minor: number, currency: string): string {
  const digits = minorUnits(currency);
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(minor);
  if (digits === 0) return `${sign}${abs}`;
  const unit = 10 ** digits;
  return `${sign}${Math.floor(abs / unit)}.${String(abs % unit).padStart(digits, '0')}`;
}

/** An amount as typed (major units: 12.5 dollars, 1000 yen) in the currency's minor units. */
export function toMinorUnits(major: number, currency: string): number {
  // Through a fixed number of decimals, so 1.005 dollars is 101 cents rather than floating point's 100.49999….
  return Math.round(Number((major * 10 ** minorUnits(currency)).toFixed(6)));
}

/** Minor units as major units (a number for inputs and charts): 123450 cents → 1234.5 dollars. */
export function toMajorUnits(minor: number, currency: string): number {
  return minor / 10 ** minorUnits(currency);
}

/** Currencies Stripe takes with no decimals (Stripe's zero-decimal list, less its special cases). */
const STRIPE_ZERO_DECIMAL = new Set([
  'BIF',
  'CLP',
  'DJF',
  'GNF',
  'JPY',
  'KMF',
  'KRW',
  'MGA',
  'PYG',
  'RWF',
  'VND',
  'VUV',
  'XAF',
  'XOF',
  'XPF',
]);
/**
 * Stripe's special cases: ISK and UGX have no minor unit, but Stripe still takes them in hundredths, which
 * must be whole units (a multiple of 100).
 */
const STRIPE_WHOLE_HUNDREDTHS = new Set(['ISK', 'UGX']);
/** Stripe's three-decimal currencies: amounts in thousandths whose last digit is 0. */
const STRIPE_THREE_DECIMAL = new Set(['BHD', 'JOD', 'KWD', 'OMR', 'TND']);

/** How Stripe takes a currency's amounts: in units of 10^-exponent, each a multiple of `multiple_of`. */
export function stripeCurrencyRule(currency: string): { exponent: number; multiple_of: number } {
  const code = currency.toUpperCase();
  if (STRIPE_ZERO_DECIMAL.has(code)) return { exponent: 0, multiple_of: 1 };
  if (STRIPE_WHOLE_HUNDREDTHS.has(code)) return { exponent: 2, multiple_of: 100 };
  if (STRIPE_THREE_DECIMAL.has(code)) return { exponent: 3, multiple_of: 10 };
  // HUF and TWD are charged in hundredths like any two-decimal currency (their special case is payouts only).
  return { exponent: 2, multiple_of: 1 };
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/**
 * The smallest step, in the currency's minor units, that a card payment can be charged in: 1 for most, 10 for
 * Stripe's three-decimal currencies (tens of fils), 100 for MGA (ISO has two decimals, Stripe none). Invoice
 * lines, tax and surcharge are rounded to it, so an invoice's total is exactly what the card is charged.
 */
export function chargeStep(currency: string): number {
  const iso = minorUnits(currency);
  const { exponent, multiple_of } = stripeCurrencyRule(currency);
  if (exponent >= iso) {
    const scale = 10 ** (exponent - iso);
    return multiple_of / gcd(multiple_of, scale);
  }
  return 10 ** (iso - exponent) * multiple_of;
}

/**
 * An amount in ISO minor units as Stripe's `amount` for the currency (¥1,000 → 1000; A$12.50 → 1250;
 * KWD 5.120 → 5120; ISK 500 → 50000). Throws when the amount is not a whole charge step.
 */
export function toStripeAmount(minor: number, currency: string): number {
  if (!Number.isInteger(minor) || minor % chargeStep(currency) !== 0)
    throw new RangeError(`${minor} minor units of ${currency} cannot be charged by card`);
  const iso = minorUnits(currency);
  const { exponent } = stripeCurrencyRule(currency);
  return exponent >= iso ? minor * 10 ** (exponent - iso) : minor / 10 ** (iso - exponent);
}

/** Stripe's `amount` in a currency as ISO minor units (the inverse of `toStripeAmount`, rounded to a unit). */
export function fromStripeAmount(amount: number, currency: string): number {
  const iso = minorUnits(currency);
  const { exponent } = stripeCurrencyRule(currency);
  return exponent >= iso ? Math.round(amount / 10 ** (exponent - iso)) : amount * 10 ** (iso - exponent);
}

/** The most Stripe charges in one payment: eight digits of its amount (99999999, e.g. $999,999.99). */
export const STRIPE_MAX_AMOUNT = 99_999_999;

/** The largest amount a stored figure holds: the database's `integer` columns. */
export const MAX_MINOR_UNITS = 2_147_483_647;
