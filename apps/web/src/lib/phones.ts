import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { businessCountry } from './locale.ts';

/**
 * A phone number for reading: as dialled at home for a number in the business's country ('0412 345 678'), in
 * international form otherwise ('+44 20 7946 0958'); anything that is not a phone number is shown as it is.
 */
export function phoneText(value: string | null | undefined): string {
  if (!value) return '';
  const parsed = parsePhoneNumberFromString(value);
  if (!parsed?.isPossible()) return value;
  return parsed.country && parsed.country === businessCountry()
    ? parsed.formatNational()
    : parsed.formatInternational();
}
