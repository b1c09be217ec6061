import { invoiceBranding } from '@switchboard/db';
import { eq } from 'drizzle-orm';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicImagePath, saveUpload } from '../../lib/storage.ts';
import {
  createTestApp,
  DEMO_LOGINS,
  fileUpload,
  getMe,
  inbound,
  selectedLocation,
  type TestApp,
} from '../../test/helpers.ts';

/** A 240 × 90 logo of coloured stripes, as PNG and as JPEG. */
function logoPixels() {
  const png = new PNG({ width: 240, height: 90 });
  for (let i = 0; i < 240 * 90; i++) png.data.set([(i * 7) % 256, (i * 13) % 256, 120, 255], i * 4);
  return png;
}
const GOOD_PNG = PNG.sync.write(logoPixels());
const GOOD_JPEG = Buffer.from(jpeg.encode({ width: 240, height: 90, data: logoPixels().data }, 90).data);
const cut = (bytes: Buffer) => bytes.subarray(0, Math.floor(bytes.length * 0.6));

/** A PDF draws a picture as an image XObject; pdfkit writes its dictionary with this entry. */
const hasImage = (pdf: Buffer) => pdf.includes('/Subtype /Image');

describe('invoice logos: a damaged image is refused on upload, and one already stored never breaks a PDF', () => {
  let t: TestApp;
  let owner: string;
  let staff: string;
  let businessId: string;
  let ownerId: string;
  let enquiryId: string;

  const putLogoFile = async (name: string, type: string, bytes: Buffer) =>
    t.request({
      method: 'PUT',
      url: '/api/v1/business/customer-invoices/branding/icon',
      token: owner,
      ...(await fileUpload('image', name, type, bytes)),
    });
  const branding = async () =>
    (
      await t.request({ method: 'GET', url: '/api/v1/business/customer-invoices/branding', token: owner })
    ).json().body as { logo_url: string | null };
  const newInvoice = async (description: string) =>
    (
      await t.request({
        method: 'POST',
        url: '/api/v1/business/customer-invoices',
        token: staff,
        payload: {
          enquiry_id: enquiryId,
          items: [{ description, quantity: 1, unit_price_cents: 4500, tax_rate: 10 }],
        },
      })
    ).json().body as { id: string; number: string; pay_url: string };
  /** The staff copy and the customer's copy of an invoice's PDF, each checked to be a PDF that reads. */
  async function pdfsOf(inv: { id: string; number: string; pay_url: string }) {
    const secret = inv.pay_url.split('/pay/')[1];
    const copies = [
      await t.request({
        method: 'GET',
        url: `/api/v1/business/customer-invoices/${inv.id}/pdf`,
        token: staff,
      }),
      await t.request({ method: 'GET', url: `/api/v1/business/invoices/secret/${secret}/pdf` }),
    ];
    for (const res of copies) {
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      const { text } = await extractText(await getDocumentProxy(new Uint8Array(res.rawPayload)), {
        mergePages: true,
      });
      expect(text).toContain(inv.number);
    }
    return copies.map((res) => res.rawPayload);
  }

  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.login(DEMO_LOGINS.owner);
    staff = await t.login(DEMO_LOGINS.staff1);
    const me = await getMe(t, owner);
    businessId = me.businesses.find((b) => b.selected)!.id;
    ownerId = me.id;
    ({ enquiry_id: enquiryId } = await inbound(t, owner, {
      location_id: await selectedLocation(t, owner),
      from: { phone: '+61491570222', name: 'Ada Logo' },
      message: 'Could I have the invoice please?',
    }));
  });
  afterAll(() => t.close());

  it('refuses a truncated PNG or JPEG and an oversized picture, saying what is wrong, and keeps the logo it had', async () => {
    const good = await putLogoFile('logo.png', 'image/png', GOOD_PNG);
    expect(good.statusCode, good.body).toBe(200);
    const kept = (await branding()).logo_url;
    expect(kept).toBeTruthy();
    for (const [name, type, bytes] of [
      ['cut.png', 'image/png', cut(GOOD_PNG)],
      ['cut.jpg', 'image/jpeg', cut(GOOD_JPEG)],
    ] as const) {
      const res = await putLogoFile(name, type, bytes);
      expect(res.statusCode, name).toBe(422);
      expect(res.json().message).toBe(
        'The logo could not be read: the image is damaged or incomplete. Save it again as PNG or JPEG and upload it.',
      );
    }
    // A PNG whose header claims 60,000 × 60,000 pixels is refused before a pixel is inflated.
    const huge = Buffer.from(GOOD_PNG);
    huge.writeUInt32BE(60_000, 16);
    huge.writeUInt32BE(60_000, 20);
    const tooBig = await putLogoFile('huge.png', 'image/png', huge);
    expect(tooBig.statusCode).toBe(422);
    expect(tooBig.json().message).toBe(
      'The logo is 60000 × 60000 pixels, more than a logo needs (at most 25 megapixels). Make it smaller and upload it again.',
    );
    expect((await branding()).logo_url).toBe(kept);
  });

  it('draws a good PNG or JPEG logo on the invoice PDF', async () => {
    for (const [name, type, bytes] of [
      ['logo.jpg', 'image/jpeg', GOOD_JPEG],
      ['logo.png', 'image/png', GOOD_PNG],
    ] as const) {
      const res = await putLogoFile(name, type, bytes);
      expect(res.statusCode, res.body).toBe(200);
      const inv = await newInvoice(`Check-up (${type})`);
      for (const pdf of await pdfsOf(inv)) expect(hasImage(pdf), type).toBe(true);
    }
  });

  it('a damaged logo stored before uploads were checked leaves every PDF whole, without the logo', async () => {
    const before = await newInvoice('Clean');
    const broken = await saveUpload(t.app.db, t.app.config, {
      business_id: businessId,
      user_id: ownerId,
      name: 'old-logo.png',
      content_type: 'image/png',
      bytes: cut(GOOD_PNG),
    });
    await t.app.db
      .update(invoiceBranding)
      .set({ logo: publicImagePath(broken.id) })
      .where(eq(invoiceBranding.business_id, businessId));
    const after = await newInvoice('Whitening');
    for (const inv of [before, after])
      for (const pdf of await pdfsOf(inv)) expect(hasImage(pdf), inv.number).toBe(false);
    const preview = await t.request({
      method: 'POST',
      url: '/api/v1/business/customer-invoices/branding/preview',
      token: owner,
      payload: {},
    });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });
});
