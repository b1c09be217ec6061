import { formatMoney } from '@switchboard/shared';
import { businessLocale } from './locale.ts';

/** An amount in minor units, in the business's locale: '$120.00' in Australia, 'US$120.00' there for dollars from the US. */
export function moneyText(minor: number, currency: string): string {
  return formatMoney(minor, currency, businessLocale());
}
