import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  DEMO_LOGINS,
  eventually,
  fileUpload,
  inbound,
  selectedLocation,
  type TestApp,
} from '../../test/helpers.ts';

// biome-ignore lint/suspicious/noExplicitAny: tests read whatever the API answered.
type Json = Record<string, any>;

describe('invoices (sandbox payments)', () => {
  let t: TestApp;
  let owner: string;
  let staff: string;
  let other: string;
  let loc: string;
  let enquiryId: string;

  const api = async (method: string, url: string, token: string, payload?: unknown) => {
    const res = await t.request({
      method: method as 'GET',
      url: `/api/v1${url}`,
      token,
      payload: payload as Json,
    });
    return { status: res.statusCode, body: res.json() as Json, raw: res };
  };
  const item = (description: string, quantity: number, unit_price_cents: number, tax_rate = 10) => ({
    description,
    quantity,
    unit_price_cents,
    tax_rate,
  });

  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.login(DEMO_LOGINS.owner);
    staff = await t.login(DEMO_LOGINS.staff1);
    other = await t.login(DEMO_LOGINS.northsideOwner);
    loc = await selectedLocation(t, owner);
    ({ enquiry_id: enquiryId } = await inbound(t, owner, {
      location_id: loc,
      from: { phone: '+61491570111', name: 'Ивана Petrova' },
      message: 'Can you send me the bill for the service?',
    }));
  });
  afterAll(() => t.close());

  it('prices lines and totals in cents, numbers the invoice and bills the conversation’s customer', async () => {
    const res = await api('POST', '/business/customer-invoices', staff, {
      enquiry_id: enquiryId,
      items: [
        item('Service, 1.5 h', 1.5, 1999),
        item('Brake pads', 2, 4550, 10),
        item('Disposal', 1, 333, 0),
      ],
      due_date: '2026-12-10',
      notes: 'Thanks for riding with us.',
    });
    expect(res.status, res.raw.body).toBe(200);
    const inv = res.body.body;
    expect(inv).toMatchObject({
      status: 'draft',
      bill_to: 'Ивана Petrova',
      currency: 'AUD',
      subtotal_cents: 2999 + 9100 + 333,
      tax_cents: 300 + 910,
      surcharge_cents: 0,
      total_cents: 2999 + 9100 + 333 + 300 + 910,
      enquiry_id: enquiryId,
      location_id: loc,
    });
    expect(inv.number).toMatch(/^INV-\d{4}$/);
    expect(inv.items[0]).toEqual({
      description: 'Service, 1.5 h',
      quantity: 1.5,
      unit_price_cents: 1999,
      tax_rate: 10,
      amount_cents: 2999,
      tax_cents: 300,
    });
    expect(inv.pay_url).toMatch(/\/pay\/[\w-]{32}$/);
  });

  it('never hands out one number twice, however many invoices are written at once', async () => {
    const made = await Promise.all(
      Array.from({ length: 12 }, () =>
        api('POST', '/business/customer-invoices', staff, {
          enquiry_id: enquiryId,
          items: [item('Tune', 1, 5000)],
        }),
      ),
    );
    expect(made.map((m) => m.status)).toEqual(Array(12).fill(200));
    const numbers = made.map((m) => Number(m.body.body.number.slice(4)));
    expect(new Set(numbers).size).toBe(12);
    expect(Math.max(...numbers) - Math.min(...numbers)).toBe(11);
    // A deleted draft's number is not handed out again.
    const last = made.find((m) => Number(m.body.body.number.slice(4)) === Math.max(...numbers))!.body.body;
    expect((await api('DELETE', `/business/customer-invoices/${last.id}`, staff)).status).toBe(200);
    const next = await api('POST', '/business/customer-invoices', staff, {
      enquiry_id: enquiryId,
      items: [item('Tune', 1, 5000)],
    });
    expect(Number(next.body.body.number.slice(4))).toBe(Math.max(...numbers) + 1);
  });

  it('refuses bad input saying what is wrong, and stores nothing', async () => {
    const before = (await api('GET', '/business/customer-invoices?page_size=1', owner)).body.body.total;
    const cases: [unknown, number, RegExp][] = [
      [{ enquiry_id: enquiryId, items: [] }, 400, /at least one item/],
      [{ enquiry_id: enquiryId, items: [item('x', 1, 10.5)] }, 400, /whole minor units/],
      // Only ISO 4217 currencies, named when refused.
      [{ enquiry_id: enquiryId, items: [item('x', 1, 10)], currency: 'ZZZ' }, 400, /ZZZ is not an ISO 4217/],
      [{ enquiry_id: enquiryId, items: [item('x', 1, 10)], currency: 'btc' }, 400, /BTC is not an ISO 4217/],
      // Beyond what the database's integer columns hold: 400, never a 500.
      [{ enquiry_id: enquiryId, items: [item('x', 1, 100_000_000_00)] }, 400, /at most 2147483647/],
      [
        { enquiry_id: enquiryId, items: [item('x', 1_000_000, 2_000_000_000, 0)] },
        400,
        /Item 1 would be \$20,000,000,000,000\.00; an invoice holds at most \$21,474,836\.47/,
      ],
      [
        { enquiry_id: enquiryId, items: [item('x', 1, 2_000_000_000, 0), item('y', 1, 2_000_000_000, 0)] },
        400,
        /The total would be/,
      ],
      [{ enquiry_id: enquiryId, items: [item('x', 1.0001, 10)] }, 400, /three decimals/],
      [{ enquiry_id: enquiryId, items: [item('x', 1, 10, 12.345)] }, 400, /two decimals/],
      [{ items: [item('x', 1, 10)] }, 400, /customer_id or enquiry_id/],
      [{ enquiry_id: enquiryId, items: [item('x', 1, 10)], due_date: '10/12/2026' }, 400, /YYYY-MM-DD/],
    ];
    for (const [payload, status, message] of cases) {
      const res = await api('POST', '/business/customer-invoices', staff, payload);
      expect(res.status, JSON.stringify(payload)).toBe(status);
      expect(JSON.stringify(res.body)).toMatch(message);
    }
    expect((await api('GET', '/business/customer-invoices?page_size=1', owner)).body.body.total).toBe(before);
  });

  it('keeps each business’s invoices to itself', async () => {
    const mine = (
      await api('POST', '/business/customer-invoices', staff, {
        enquiry_id: enquiryId,
        items: [item('A', 1, 100)],
      })
    ).body.body;
    expect((await api('GET', `/business/customer-invoices/${mine.id}`, other)).status).toBe(404);
    expect((await api('PUT', `/business/customer-invoices/${mine.id}`, other, { notes: 'x' })).status).toBe(
      404,
    );
    expect((await api('POST', `/business/customer-invoices/${mine.id}/send`, other, {})).status).toBe(404);
    expect((await api('GET', `/business/customer-invoices/${mine.id}/pdf`, other)).status).toBe(404);
    const theirs = await api('POST', '/business/customer-invoices', other, {
      enquiry_id: enquiryId,
      items: [item('A', 1, 100)],
    });
    expect(theirs.status).toBe(404);
    const list = (await api('GET', '/business/customer-invoices?page_size=100', other)).body.body;
    expect(list.items.map((i: Json) => i.id)).not.toContain(mine.id);
  });

  it('sends the pay link in the conversation, and the customer pays it on the sandbox payment page', async () => {
    // The owner connects Stripe (the sandbox's account is ready at once).
    const link = await api('GET', '/business/mybusiness/stripe-connect-link', owner);
    expect(link.status, link.raw.body).toBe(200);
    expect(link.body.body.url).toBe(`${t.config.publicUrl}/settings/payments?stripe=return`);
    expect((await api('GET', '/business/mybusiness/stripe-connect-link', staff)).status).toBe(403);
    const account = (await api('GET', '/business/mybusiness/stripe-account', owner)).body.body;
    expect(account).toEqual({
      mode: 'sandbox',
      connected: true,
      details_submitted: true,
      charges_enabled: true,
      payouts_enabled: true,
    });

    const inv = (
      await api('POST', '/business/customer-invoices', staff, {
        enquiry_id: enquiryId,
        items: [item('Wheel true', 1, 4000)],
        due_date: '2026-12-24',
      })
    ).body.body;
    const secret = inv.pay_url.split('/pay/')[1];
    const sent = await api('POST', `/business/customer-invoices/${inv.id}/send`, staff, {
      close_on_paid: true,
    });
    expect(sent.status, sent.raw.body).toBe(200);
    expect(sent.body.body).toMatchObject({ status: 'sent', close_on_paid: true });
    const thread = (await api('GET', `/enquiries/${enquiryId}/messages`, staff)).body.body.items as Json[];
    const message = thread.find((m) => m.message.includes(inv.pay_url));
    expect(message?.message).toBe(
      `Hi Ивана, here is invoice ${inv.number} from Harbourside Dental for $44.00, due 24 Dec 2026. View and pay: ${inv.pay_url}`,
    );

    // The customer opens the link: it is viewed (a preview from the app is not).
    const preview = await t.request({
      method: 'GET',
      url: `/api/v1/business/invoices/secret/${secret}?preview=1`,
    });
    expect(preview.json().body.status).toBe('sent');
    const page = await t.request({ method: 'GET', url: `/api/v1/business/invoices/secret/${secret}` });
    expect(page.statusCode).toBe(200);
    expect(page.json().body).toMatchObject({
      status: 'viewed',
      can_pay: true,
      total_cents: 4400,
      number: inv.number,
    });

    // Pay: a Checkout session on the sandbox page, then the signed webhook marks it paid.
    const checkout = await t.request({
      method: 'POST',
      url: `/api/v1/business/invoices/secret/${secret}/checkout`,
    });
    expect(checkout.statusCode, checkout.body).toBe(200);
    const session = checkout.json().body.url.split('/sandbox/checkout/')[1];
    const shown = await t.request({ method: 'GET', url: `/api/v1/sandbox/checkout/${session}` });
    expect(shown.json().body).toMatchObject({ number: inv.number, total_cents: 4400, status: 'open' });
    const paid = await t.request({
      method: 'POST',
      url: `/api/v1/sandbox/checkout/${session}`,
      payload: { outcome: 'pay' },
    });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json().body.redirect_url).toBe(`${inv.pay_url}?paid=1`);
    const after = (await api('GET', `/business/customer-invoices/${inv.id}`, staff)).body.body;
    expect(after).toMatchObject({ status: 'paid', amount_paid_cents: 4400 });
    expect(after.paid_at).toBeTruthy();
    // The conversation says so, and it closed as asked.
    const notes = (await api('GET', `/enquiries/${enquiryId}/notes`, staff)).body.body.items as Json[];
    expect(notes.at(-1)).toMatchObject({
      kind: 'event',
      user_id: null,
      body: `Invoice ${inv.number} paid: $44.00.`,
    });
    expect((await api('GET', `/enquiries/${enquiryId}`, staff)).body.body.status).toBe('closed');
    // Paid is final for its lines.
    expect((await api('PUT', `/business/customer-invoices/${inv.id}`, staff, { notes: 'x' })).status).toBe(
      409,
    );
    expect((await api('POST', `/business/customer-invoices/${inv.id}/void`, owner)).status).toBe(409);

    // Refunds: staff may not; part, then the rest; never more than was paid.
    expect((await api('POST', `/business/customer-invoices/${inv.id}/refund`, staff, {})).status).toBe(403);
    const tooMuch = await api('POST', `/business/customer-invoices/${inv.id}/refund`, owner, {
      amount_cents: 5000,
    });
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body.message).toBe(`At most $44.00 of ${inv.number} can be refunded.`);
    const part = await api('POST', `/business/customer-invoices/${inv.id}/refund`, owner, {
      amount_cents: 1000,
    });
    expect(part.body.body).toMatchObject({ status: 'partially_refunded', amount_refunded_cents: 1000 });
    const rest = await api('POST', `/business/customer-invoices/${inv.id}/refund`, owner, {});
    expect(rest.body.body).toMatchObject({ status: 'refunded', amount_refunded_cents: 4400 });
  });

  it('shows a declined card on the pay page, and the invoice stays payable', async () => {
    const inv = (
      await api('POST', '/business/customer-invoices', staff, {
        enquiry_id: enquiryId,
        items: [item('Tube', 1, 1500)],
      })
    ).body.body;
    await api('POST', `/business/customer-invoices/${inv.id}/send`, staff, {});
    const secret = inv.pay_url.split('/pay/')[1];
    const checkout = await t.request({
      method: 'POST',
      url: `/api/v1/business/invoices/secret/${secret}/checkout`,
    });
    const session = checkout.json().body.url.split('/sandbox/checkout/')[1];
    const declined = await t.request({
      method: 'POST',
      url: `/api/v1/sandbox/checkout/${session}`,
      payload: { outcome: 'decline' },
    });
    expect(declined.json().body.redirect_url).toBe(inv.pay_url);
    const page = (
      await t.request({ method: 'GET', url: `/api/v1/business/invoices/secret/${secret}` })
    ).json().body;
    expect(page).toMatchObject({
      status: 'viewed',
      can_pay: true,
      last_payment_error: 'Your card was declined.',
    });
  });

  it('shows the customer what the invoice says and nothing private', async () => {
    const inv = (
      await api('POST', '/business/customer-invoices', staff, {
        enquiry_id: enquiryId,
        items: [item('Chain', 1, 3000)],
        notes: 'Collected Tuesday.',
      })
    ).body.body;
    const secret = inv.pay_url.split('/pay/')[1];
    const page = (
      await t.request({ method: 'GET', url: `/api/v1/business/invoices/secret/${secret}` })
    ).json().body;
    expect(Object.keys(page).sort()).toEqual(
      [
        'amount_due_cents',
        'amount_paid_cents',
        'amount_refunded_cents',
        'bill_to',
        'branding',
        'business',
        'can_pay',
        'currency',
        'document',
        'due_date',
        'issued_at',
        'items',
        'last_payment_error',
        'notes',
        'number',
        'paid_at',
        'pdf_url',
        'status',
        'subtotal_cents',
        'surcharge_bps',
        'surcharge_cents',
        'tax_cents',
        'total_cents',
      ].sort(),
    );
    const text = JSON.stringify(page);
    for (const hidden of [
      inv.id,
      enquiryId,
      loc,
      inv.customer_id,
      'staff1@',
      'owner@',
      'Can you send me the bill',
    ])
      expect(text).not.toContain(hidden);
    expect(page.notes).toBe('Collected Tuesday.');
    // A draft cannot be paid; a link that is not one is 404.
    expect(page.can_pay).toBe(false);
    expect(
      (await t.request({ method: 'POST', url: `/api/v1/business/invoices/secret/${secret}/checkout` }))
        .statusCode,
    ).toBe(409);
    expect(
      (await t.request({ method: 'GET', url: '/api/v1/business/invoices/secret/not-a-real-secret-at-all' }))
        .statusCode,
    ).toBe(404);
  });

  it('writes a PDF with the invoice number and a non-Latin name', async () => {
    const inv = (
      await api('POST', '/business/customer-invoices', staff, {
        enquiry_id: enquiryId,
        items: [item('Saddle', 1, 8900)],
      })
    ).body.body;
    const res = await t.request({
      method: 'GET',
      url: `/api/v1/business/customer-invoices/${inv.id}/pdf`,
      token: staff,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(res.rawPayload)), {
      mergePages: true,
    });
    expect(text).toContain(inv.number);
    expect(text).toContain('Ивана Petrova');
    expect(text).toContain('$97.90');
    // The customer's copy is the same document.
    const secret = inv.pay_url.split('/pay/')[1];
    const theirs = await t.request({ method: 'GET', url: `/api/v1/business/invoices/secret/${secret}/pdf` });
    expect(theirs.rawPayload.equals(res.rawPayload)).toBe(true);
  });

  it('adds a location’s card surcharge as its own line when it is on', async () => {
    expect(
      (await api('POST', `/business/toggle-stripe-charge-rate/${loc}`, staff, { enabled: true })).status,
    ).toBe(403);
    const on = await api('POST', `/business/toggle-stripe-charge-rate/${loc}`, owner, {
      enabled: true,
      rate: 1.5,
    });
    expect(on.body.body).toEqual({ location_id: loc, enabled: true, rate_bps: 150 });
    const inv = (
      await api('POST', '/business/customer-invoices', staff, {
        enquiry_id: enquiryId,
        items: [item('Frame', 1, 100000)],
      })
    ).body.body;
    expect(inv).toMatchObject({
      subtotal_cents: 100000,
      tax_cents: 10000,
      surcharge_bps: 150,
      surcharge_cents: 1650,
      total_cents: 111650,
    });
    const off = await api('POST', `/business/toggle-stripe-charge-rate/${loc}`, owner);
    expect(off.status, off.raw.body).toBe(200);
    expect(off.body.body.enabled).toBe(false);
    expect(
      (
        await api(
          'POST',
          `/business/toggle-stripe-charge-rate/${'0'.repeat(8)}-0000-0000-0000-000000000000`,
          owner,
        )
      ).status,
    ).toBe(404);
  });

  it('exports the filtered list as CSV for Excel, with formulas made harmless', async () => {
    const customer = await inbound(t, owner, {
      location_id: loc,
      from: { phone: '+61491570222', name: '=HYPERLINK("http://evil.test","x")' },
      message: 'hi',
    });
    const inv = (
      await api('POST', '/business/customer-invoices', staff, {
        enquiry_id: customer.enquiry_id,
        items: [item('+SUM(A1:A9)', 2, 1250)],
      })
    ).body.body;
    const res = await t.request({
      method: 'GET',
      url: `/api/v1/business/customer-invoices/export?q=${encodeURIComponent('HYPERLINK')}`,
      token: owner,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="invoices.csv"');
    expect(res.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const lines = res.rawPayload.subarray(3).toString('utf8').trim().split('\n');
    expect(lines[0]).toBe(
      'Number,Status,Issued,Due,Customer,Location,Currency,Subtotal,Tax,Card surcharge,Total,Paid,Left to pay,Refunded,Paid on,Items',
    );
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`${inv.number},Draft,`);
    expect(lines[1]).toContain(`"'=HYPERLINK(""http://evil.test"",""x"")"`);
    expect(lines[1]).toContain(",AUD,25.00,2.50,0.00,27.50,0.00,0.00,0.00,,'+SUM(A1:A9) × 2");
    // Another business's export has none of ours.
    const theirs = await t.request({
      method: 'GET',
      url: '/api/v1/business/customer-invoices/export',
      token: other,
    });
    expect(theirs.rawPayload.toString('utf8')).not.toContain(inv.number);
  });

  it('lists with filters: status, dates, customer and text', async () => {
    const all = (await api('GET', '/business/customer-invoices?page_size=100', owner)).body.body;
    expect(all.total).toBeGreaterThan(10);
    const drafts = (await api('GET', '/business/customer-invoices?status=draft&page_size=100', owner)).body
      .body;
    expect(drafts.items.every((i: Json) => i.status === 'draft')).toBe(true);
    const found = (await api('GET', '/business/customer-invoices?q=Saddle', owner)).body.body;
    expect(found.items.map((i: Json) => i.items[0].description)).toEqual(['Saddle']);
    const future = (await api('GET', '/business/customer-invoices?start_date=2099-01-01', owner)).body.body;
    expect(future.total).toBe(0);
    const bad = await api(
      'GET',
      '/business/customer-invoices?start_date=2026-12-02&end_date=2026-12-01',
      owner,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('The dates start (2026-12-02) after they end (2026-12-01).');
    const paged = (await api('GET', '/business/customer-invoices', owner)).body.body;
    expect(paged.page_size).toBe(10);
    expect(paged.items).toHaveLength(10);
  });

  it('keeps the owner’s branding, previews it as a PDF before saving, and serves the logo publicly', async () => {
    expect(
      (await api('PUT', '/business/customer-invoices/branding', staff, { accent_color: '#112233' })).status,
    ).toBe(403);
    const bad = await api('PUT', '/business/customer-invoices/branding', owner, { accent_color: 'red' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('Give the colour as #RRGGBB.');
    const saved = await api('PUT', '/business/customer-invoices/branding', owner, {
      accent_color: '#0a7d4f',
      font: 'lora',
      footer: 'Harbourside Dental Pty Ltd',
      tax_id: 'ABN 53 004 085 616',
      reminder_days_after: [7, 1, 7],
    });
    expect(saved.body.body).toMatchObject({
      accent_color: '#0A7D4F',
      font: 'lora',
      tax_id: '53 004 085 616',
      reminder_days_after: [1, 7],
      fonts: expect.arrayContaining([expect.objectContaining({ id: 'noto-sans', name: 'Noto Sans' })]),
    });
    // The preview is the unsaved look; nothing is saved by it.
    const preview = await t.request({
      method: 'POST',
      url: '/api/v1/business/customer-invoices/branding/preview',
      token: owner,
      payload: { number_prefix: 'HD-', tax_id: 'ABN 51 824 753 556' },
    });
    expect(preview.statusCode).toBe(200);
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(preview.rawPayload)), {
      mergePages: true,
    });
    expect(text).toContain('HD-0042');
    expect(text).toContain('ABN 51 824 753 556');
    expect((await api('GET', '/business/customer-invoices/branding', staff)).body.body.tax_id).toBe(
      '53 004 085 616',
    );

    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
      'base64',
    );
    const gif = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
    const refused = await t.request({
      method: 'PUT',
      url: '/api/v1/business/customer-invoices/branding/icon',
      token: owner,
      ...(await fileUpload('image', 'logo.gif', 'image/gif', gif)),
    });
    expect(refused.statusCode).toBe(415);
    expect(refused.json().message).toBe(
      'The logo must be a PNG or JPEG file (PDF invoices take no other kind).',
    );
    const logo = await t.request({
      method: 'PUT',
      url: '/api/v1/business/customer-invoices/branding/icon',
      token: owner,
      ...(await fileUpload('image', 'logo.png', 'image/png', png)),
    });
    expect(logo.statusCode, logo.body).toBe(200);
    const logoUrl = logo.json().body.logo_url as string;
    const served = await t.request({ method: 'GET', url: logoUrl });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(png)).toBe(true);
    // The pay page shows the branding; a reset takes the look back (the numbering stays).
    const inv = (
      await api('POST', '/business/customer-invoices', staff, {
        enquiry_id: enquiryId,
        items: [item('Floss', 1, 500)],
      })
    ).body.body;
    const page = (
      await t.request({
        method: 'GET',
        url: `/api/v1/business/invoices/secret/${inv.pay_url.split('/pay/')[1]}`,
      })
    ).json().body;
    expect(page.branding).toMatchObject({
      accent_color: '#0A7D4F',
      font: 'lora',
      logo_url: logoUrl,
      footer: 'Harbourside Dental Pty Ltd',
    });
    const reset = (await api('DELETE', '/business/customer-invoices/branding', owner)).body.body;
    expect(reset).toMatchObject({
      logo_url: null,
      accent_color: '#1E75FF',
      font: 'noto-sans',
      reminder_days_after: [1, 7],
    });
    expect((await t.request({ method: 'GET', url: logoUrl })).statusCode).toBe(404);
  });

  it('hears of a paid invoice live (invoice.updated to the business)', async () => {
    const inv = (
      await api('POST', '/business/customer-invoices', staff, {
        enquiry_id: enquiryId,
        items: [item('Bell', 1, 900)],
      })
    ).body.body;
    const seen: Json[] = [];
    const listener = ({ invoice }: { invoice: Json }) => void seen.push(invoice);
    t.app.events.on('invoice.updated', listener);
    await api('POST', `/business/customer-invoices/${inv.id}/send`, staff, {});
    const secret = inv.pay_url.split('/pay/')[1];
    const session = (
      await t.request({ method: 'POST', url: `/api/v1/business/invoices/secret/${secret}/checkout` })
    )
      .json()
      .body.url.split('/sandbox/checkout/')[1];
    await t.request({
      method: 'POST',
      url: `/api/v1/sandbox/checkout/${session}`,
      payload: { outcome: 'pay' },
    });
    await eventually(async () => seen.some((i) => i.id === inv.id && i.status === 'paid'));
    t.app.events.off('invoice.updated', listener);
  });
});
