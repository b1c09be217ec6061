import { businesses, invoiceBranding } from '@switchboard/db';
import { eq } from 'drizzle-orm';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DEMO_LOGINS, inbound, selectedLocation, type TestApp } from '../../test/helpers.ts';

// biome-ignore lint/suspicious/noExplicitAny: tests read whatever the API answered.
type Json = Record<string, any>;

describe('invoices as the business’s country needs them', () => {
  let t: TestApp;
  let owner: string;
  let staff: string;
  let businessId: string;
  let enquiryId: string;

  const api = async (method: string, url: string, token: string, payload?: unknown) => {
    const res = await t.request({
      method: method as 'GET',
      url: `/api/v1${url}`,
      token,
      payload: payload as Json,
    });
    return { status: res.statusCode, body: res.json() as Json };
  };
  /** A sent invoice's pay page data and the text of its PDF. */
  async function sentInvoice(taxRate: number) {
    const inv = (
      await api('POST', '/business/customer-invoices', staff, {
        enquiry_id: enquiryId,
        items: [{ description: 'Check-up', quantity: 1, unit_price_cents: 12000, tax_rate: taxRate }],
      })
    ).body.body;
    expect((await api('POST', `/business/customer-invoices/${inv.id}/send`, staff, {})).status).toBe(200);
    const secret = inv.pay_url.split('/pay/')[1];
    const page = (
      await t.request({ method: 'GET', url: `/api/v1/business/invoices/secret/${secret}` })
    ).json().body as Json;
    const pdf = await t.request({ method: 'GET', url: `/api/v1/business/invoices/secret/${secret}/pdf` });
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(pdf.rawPayload)), {
      mergePages: true,
    });
    return { page, text };
  }
  const setCountry = (country: string) =>
    t.app.db.update(businesses).set({ country }).where(eq(businesses.id, businessId));
  const storedTaxId = async () =>
    (
      await t.app.db
        .select({ tax_id: invoiceBranding.tax_id })
        .from(invoiceBranding)
        .where(eq(invoiceBranding.business_id, businessId))
    )[0]?.tax_id ?? null;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.login(DEMO_LOGINS.owner);
    staff = await t.login(DEMO_LOGINS.staff1);
    const loc = await selectedLocation(t, owner);
    ({ enquiry_id: enquiryId } = await inbound(t, owner, {
      location_id: loc,
      from: { phone: '+61491570301', name: 'Jo Citizen' },
      message: 'Invoice please',
    }));
    const [row] = await t.app.db
      .select({ id: businesses.id, country: businesses.country })
      .from(businesses)
      .where(eq(businesses.name, 'Harbourside Dental'));
    businessId = row!.id;
    expect(row!.country).toBe('AU');
  });
  afterAll(() => t.close());

  it('Australia: the ABN is checked (ATO check digits) and kept in its usual form', async () => {
    expect((await api('GET', '/business/customer-invoices/branding', owner)).body.body.country).toBe('AU');
    const wrong = await api('PUT', '/business/customer-invoices/branding', owner, {
      tax_id: '51 824 753 557',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe(
      'ABN: 51 824 753 557 is not a valid Australian business number (its check digits do not add up).',
    );
    const short = await api('PUT', '/business/customer-invoices/branding', owner, { tax_id: '1234' });
    expect(short.status).toBe(400);
    expect(short.body.message).toMatch(/^ABN: .*11 digits/);
    expect(await storedTaxId()).toBe(null);
    const right = await api('PUT', '/business/customer-invoices/branding', owner, { tax_id: '51824753556' });
    expect(right.status).toBe(200);
    expect(right.body.body.tax_id).toBe('51 824 753 556');
    // The preview checks it the same way.
    const preview = await api('POST', '/business/customer-invoices/branding/preview', owner, {
      tax_id: '123',
    });
    expect(preview.status).toBe(400);
  });

  it('Australia: an invoice charging GST is a "Tax invoice" naming GST and showing the ABN, on the pay page and the PDF', async () => {
    const { page, text } = await sentInvoice(10);
    expect(page.document).toEqual({ title: 'Tax invoice', tax_name: 'GST', tax_number_label: 'ABN' });
    expect(page.branding.tax_id).toBe('51 824 753 556');
    expect(text).toContain('Tax invoice');
    expect(text).toContain('ABN 51 824 753 556');
    expect(text).toMatch(/GST\s+\$12\.00/);
    expect(text).not.toContain('Tax ID');
    // No GST charged: no tax invoice.
    const plain = await sentInvoice(0);
    expect(plain.page.document.title).toBe('Invoice');
    expect(plain.text).not.toContain('Tax invoice');
  });

  it('United Kingdom: a "VAT invoice" naming VAT with the VAT registration number (GB and 9 or 12 digits)', async () => {
    await setCountry('GB');
    const wrong = await api('PUT', '/business/customer-invoices/branding', owner, { tax_id: '123456789' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toMatch(/^VAT registration number: /);
    expect(await storedTaxId()).toBe('51 824 753 556');
    const right = await api('PUT', '/business/customer-invoices/branding', owner, {
      tax_id: 'gb 123 4567 89',
    });
    expect(right.body.body.tax_id).toBe('GB123456789');
    const { page, text } = await sentInvoice(20);
    expect(page.document).toEqual({
      title: 'VAT invoice',
      tax_name: 'VAT',
      tax_number_label: 'VAT registration number',
    });
    expect(text).toContain('VAT invoice');
    expect(text).toContain('VAT registration number GB123456789');
  });

  it('New Zealand: a "Tax invoice" with GST and the GST number (8 or 9 digits)', async () => {
    await setCountry('NZ');
    const wrong = await api('PUT', '/business/customer-invoices/branding', owner, { tax_id: '1234567' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toMatch(/^GST number: /);
    await api('PUT', '/business/customer-invoices/branding', owner, { tax_id: '123456789' });
    const { page, text } = await sentInvoice(15);
    expect(page.document).toEqual({ title: 'Tax invoice', tax_name: 'GST', tax_number_label: 'GST number' });
    expect(text).toContain('GST number 123-456-789');
  });

  it('United States and Canada: a plain "Invoice" with sales tax, or GST/HST', async () => {
    await setCountry('US');
    expect(
      (await api('PUT', '/business/customer-invoices/branding', owner, { tax_id: '12-3456789' })).status,
    ).toBe(200);
    const us = await sentInvoice(8);
    expect(us.page.document).toEqual({ title: 'Invoice', tax_name: 'Sales tax', tax_number_label: 'Tax ID' });
    expect(us.text).toMatch(/Sales tax\s+\$9\.60/);
    await setCountry('CA');
    const ca = await sentInvoice(13);
    expect(ca.page.document).toMatchObject({ title: 'Invoice', tax_name: 'GST/HST' });
    await setCountry('AU');
  });
});
