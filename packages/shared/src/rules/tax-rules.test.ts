import { describe, expect, it } from 'vitest';
import { invoiceTitle, isValidAbn, taxRulesOf } from './tax-rules.ts';

describe('invoice rules by country', () => {
  it.each([
    // country, tax charged, title, tax name, number label
    ['AU', 100, 'Tax invoice', 'GST', 'ABN'],
    ['AU', 0, 'Invoice', 'GST', 'ABN'],
    ['GB', 100, 'VAT invoice', 'VAT', 'VAT registration number'],
    ['UK', 100, 'VAT invoice', 'VAT', 'VAT registration number'],
    ['NZ', 100, 'Tax invoice', 'GST', 'GST number'],
    ['US', 100, 'Invoice', 'Sales tax', 'Tax ID'],
    ['CA', 100, 'Invoice', 'GST/HST', 'GST/HST number'],
    ['DE', 100, 'Invoice', 'Tax', 'Tax ID'],
    [null, 100, 'Invoice', 'Tax', 'Tax ID'],
  ])('%s charging %i: "%s" naming %s and the %s', (country, tax, title, taxName, label) => {
    expect(invoiceTitle(country, tax)).toBe(title);
    expect(taxRulesOf(country).tax_name).toBe(taxName);
    expect(taxRulesOf(country).number_label).toBe(label);
  });

  it.each([
    ['51 824 753 556', true], // the ATO's own example
    ['53 004 085 616', true],
    ['51 824 753 557', false],
    ['01 824 753 556', false],
    ['5182475355', false],
  ])('ABN %s is valid: %s', (abn, valid) => {
    expect(isValidAbn(abn.replace(/\s/g, ''))).toBe(valid);
  });

  it.each([
    ['AU', '51824753556', { ok: true, value: '51 824 753 556' }],
    ['AU', 'ABN: 51-824-753-556', { ok: true, value: '51 824 753 556' }],
    ['AU', '51 824 753 557', { ok: false, message: expect.stringMatching(/^ABN: .*check digits/) }],
    ['AU', '1234', { ok: false, message: expect.stringMatching(/^ABN: .*11 digits/) }],
    ['GB', 'gb 123 4567 89', { ok: true, value: 'GB123456789' }],
    ['GB', 'GB123456789012', { ok: true, value: 'GB123456789012' }],
    ['GB', '123456789', { ok: false, message: expect.stringMatching(/^VAT registration number: /) }],
    ['GB', 'GB1234567890', { ok: false, message: expect.stringMatching(/^VAT registration number: /) }],
    ['NZ', '123456789', { ok: true, value: '123-456-789' }],
    ['NZ', '12-345-678', { ok: true, value: '12-345-678' }],
    ['NZ', 'GST number 123 456 789', { ok: true, value: '123-456-789' }],
    ['NZ', '1234567', { ok: false, message: expect.stringMatching(/^GST number: .*8 or 9 digits/) }],
    ['US', ' 12-3456789 ', { ok: true, value: '12-3456789' }],
  ])('%s number %j', (country, value, outcome) => {
    expect(taxRulesOf(country).check(value)).toEqual(outcome);
  });
});
