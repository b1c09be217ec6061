/**
 * What an invoice is called, what its tax is called and which registration number it shows, by the business's
 * country (`businesses.country`, ISO 3166-1 alpha-2). Sources, in docs/decisions.md: the ATO's tax invoice
 * requirements (Australia), HMRC's VAT invoice requirements (VAT Notice 700, UK), Inland Revenue's taxable
 * supply information (New Zealand).
 */
export type TaxRules = {
  /** The document's title when it charges tax, and when it does not (no tax invoice without tax). */
  title_with_tax: string;
  title_without_tax: string;
  /** The tax's name on totals and columns. */
  tax_name: string;
  /** The registration number's name, as the document and the settings field say it. */
  number_label: string;
  /** An example of the number, for the settings field. */
  number_example: string;
  /**
   * The number in the form the document shows, or why it is not one (a sentence naming the number). Countries
   * without a checked form take any text.
   */
  check: (value: string) => { ok: true; value: string } | { ok: false; message: string };
};

const anyText = (value: string) => ({ ok: true as const, value: value.trim() });

/** The ATO's ABN check: weights 10,1,3,…,19 after taking 1 from the first digit; the sum divides by 89. */
const ABN_WEIGHTS = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19];
export function isValidAbn(digits: string): boolean {
  if (!/^\d{11}$/.test(digits) || digits[0] === '0') return false;
  const sum = [...digits].reduce(
    (total, d, i) => total + (Number(d) - (i === 0 ? 1 : 0)) * (ABN_WEIGHTS[i] ?? 0),
    0,
  );
  return sum % 89 === 0;
}

function checkAbn(value: string): ReturnType<TaxRules['check']> {
  // "ABN 51 824 753 556" is how it is often written: the name before it is not part of the number.
  const digits = value.replace(/^\s*ABN:?/i, '').replace(/[\s-]/g, '');
  if (!/^\d{11}$/.test(digits))
    return { ok: false, message: 'ABN: an Australian business number has 11 digits, like 51 824 753 556.' };
  if (!isValidAbn(digits))
    return {
      ok: false,
      message: `ABN: ${value.trim()} is not a valid Australian business number (its check digits do not add up).`,
    };
  return {
    ok: true,
    value: `${digits.slice(0, 2)} ${digits.slice(2, 5)} ${digits.slice(5, 8)} ${digits.slice(8)}`,
  };
}

function checkUkVat(value: string): ReturnType<TaxRules['check']> {
  const compact = value.replace(/[\s-]/g, '').toUpperCase();
  if (!/^GB(\d{9}|\d{12})$/.test(compact))
    return {
      ok: false,
      message: 'VAT registration number: a UK VAT number is GB followed by 9 or 12 digits, like GB123456789.',
    };
  return { ok: true, value: compact };
}

function checkNzGst(value: string): ReturnType<TaxRules['check']> {
  const digits = value.replace(/^\s*GST( number| no\.?)?:?/i, '').replace(/[\s-]/g, '');
  if (!/^\d{8,9}$/.test(digits))
    return {
      ok: false,
      message: 'GST number: a New Zealand GST number has 8 or 9 digits, like 123-456-789.',
    };
  return {
    ok: true,
    value:
      digits.length === 9
        ? `${digits.slice(0, 3)}-${digits.slice(3, 6)}-${digits.slice(6)}`
        : `${digits.slice(0, 2)}-${digits.slice(2, 5)}-${digits.slice(5)}`,
  };
}

/** Where the business's country has no rule here: a plain invoice, tax called tax. */
const GENERAL: TaxRules = {
  title_with_tax: 'Invoice',
  title_without_tax: 'Invoice',
  tax_name: 'Tax',
  number_label: 'Tax ID',
  number_example: '',
  check: anyText,
};

export const TAX_RULES: Record<'AU' | 'GB' | 'NZ' | 'US' | 'CA', TaxRules> = {
  AU: {
    title_with_tax: 'Tax invoice',
    title_without_tax: 'Invoice',
    tax_name: 'GST',
    number_label: 'ABN',
    number_example: '51 824 753 556',
    check: checkAbn,
  },
  GB: {
    title_with_tax: 'VAT invoice',
    title_without_tax: 'Invoice',
    tax_name: 'VAT',
    number_label: 'VAT registration number',
    number_example: 'GB123456789',
    check: checkUkVat,
  },
  NZ: {
    title_with_tax: 'Tax invoice',
    title_without_tax: 'Invoice',
    tax_name: 'GST',
    number_label: 'GST number',
    number_example: '123-456-789',
    check: checkNzGst,
  },
  US: { ...GENERAL, tax_name: 'Sales tax' },
  CA: { ...GENERAL, tax_name: 'GST/HST', number_label: 'GST/HST number', number_example: '123456789RT0001' },
};

/** The rules for a business's country; the UK is `GB` in ISO 3166 (`UK` is taken as the same). */
export function taxRulesOf(country: string | null | undefined): TaxRules {
  const code = (country ?? '').toUpperCase();
  const key = code === 'UK' ? 'GB' : code;
  return key in TAX_RULES ? TAX_RULES[key as keyof typeof TAX_RULES] : GENERAL;
}

/** The document's title: a tax invoice only when it charges tax. */
export function invoiceTitle(country: string | null | undefined, taxCents: number): string {
  const rules = taxRulesOf(country);
  return taxCents > 0 ? rules.title_with_tax : rules.title_without_tax;
}
