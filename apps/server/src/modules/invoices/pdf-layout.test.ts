import { PublicInvoice, sampleInvoice } from '@switchboard/shared';
import { getDocumentProxy } from 'unpdf';
import { describe, expect, it } from 'vitest';
import { renderPdf } from './pdf.ts';

/** A4 in points, and the page margin the PDF keeps on each side. */
const PAGE_WIDTH = 595.28;
const MARGIN = 40;

type Word = { text: string; left: number; right: number; y: number };

/** Every piece of text pdf.js finds on the first page, with where it starts and ends across the page. */
async function wordsOf(pdf: Buffer): Promise<Word[]> {
  const doc = await getDocumentProxy(new Uint8Array(pdf));
  const content = await (await doc.getPage(1)).getTextContent();
  return content.items
    .filter((item) => 'str' in item && item.str.trim() !== '')
    .map((item) => {
      const { str, transform, width } = item as { str: string; transform: number[]; width: number };
      return { text: str.trim(), left: transform[4]!, right: transform[4]! + width, y: transform[5]! };
    });
}

const look = {
  accent_color: '#1E75FF',
  font: 'inter',
  footer: null,
  payment_terms: null,
  tax_id: null,
  currency: 'AUD',
  number_prefix: 'INV-',
  logo_url: null,
};
const deps = { db: null, config: { publicUrl: 'http://localhost' }, log: console } as never;

/** An invoice whose lines have long descriptions and large amounts: what squeezes the table hardest. */
function crowdedInvoice(country: string | null = null) {
  const page = sampleInvoice(look, 'Harbourside Dental', country);
  page.items = [
    {
      description:
        'Comprehensive examination, scale and clean, fluoride treatment and two bitewing radiographs with report',
      quantity: 12.5,
      unit_price_cents: 1_234_567,
      tax_rate: 12.5,
      amount_cents: 15_432_088,
      tax_cents: 1_929_011,
    },
    {
      description: 'Antidisestablishmentarianismwithoutanybreakingspaceswhatsoever',
      quantity: 1000,
      unit_price_cents: 999_999,
      tax_rate: 10,
      amount_cents: 999_999_000,
      tax_cents: 99_999_900,
    },
  ];
  return PublicInvoice.parse(page);
}

describe('the invoice PDF layout', () => {
  it.each([
    ['AU', 'GST'],
    ['US', 'Sales tax'],
    ['CA', 'GST/HST'],
    ['GB', 'VAT'],
  ])('%s: the headers, with the tax named "%s", stand whole and apart', async (country, taxName) => {
    const words = await wordsOf(await renderPdf(deps, crowdedInvoice(country), null));
    const headers = ['Description', 'Qty', 'Unit price', taxName, 'Amount'].map((h) => {
      const found = words.find((w) => w.text === h);
      expect(found, `${h} in ${JSON.stringify(words.map((w) => w.text))}`).toBeDefined();
      return found!;
    });
    for (let i = 1; i < headers.length; i++)
      expect(headers[i]!.left, headers[i]!.text).toBeGreaterThan(headers[i - 1]!.right + 4);
    expect(headers.at(-1)!.right).toBeLessThanOrEqual(PAGE_WIDTH - MARGIN);
  });

  it('keeps every column header whole and the table inside the page margins', async () => {
    const words = await wordsOf(await renderPdf(deps, crowdedInvoice(), null));
    for (const header of ['Description', 'Qty', 'Unit price', 'Tax', 'Amount']) {
      expect(
        words.some((w) => w.text === header),
        `${header} in ${JSON.stringify(words.map((w) => w.text))}`,
      ).toBe(true);
    }
    expect(words.some((w) => w.text === 'Amoun' || w.text === 't')).toBe(false);
    for (const w of words) {
      expect(w.left, w.text).toBeGreaterThanOrEqual(MARGIN - 0.5);
      expect(w.right, w.text).toBeLessThanOrEqual(PAGE_WIDTH - MARGIN + 0.5);
    }
    // The header's text sits inside its coloured band, not against its edge (the table's, at the margin).
    const amount = words.find((w) => w.text === 'Amount')!;
    expect(PAGE_WIDTH - MARGIN - amount.right).toBeGreaterThanOrEqual(4);
    const description = words.find((w) => w.text === 'Description')!;
    expect(description.left - MARGIN).toBeGreaterThanOrEqual(4);
  });
});
