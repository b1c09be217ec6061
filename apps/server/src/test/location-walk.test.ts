import { aiEnquiries, calls, queryRows } from '@switchboard/db';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelTestApp, connect, FakeProvider } from '../modules/channels/test-support.ts';
import { DEMO_LOGINS, eventually, fileUpload, getMe, inbound, type Json, type TestApp } from './helpers.ts';

/**
 * Walks the route table as a staff member limited to one location (A), calling every route with a path
 * parameter with the ids of objects of the business's other location (B): each answers 404, as for another
 * business's ids, and nothing of the business changes. Owner-only routes answer staff 403. The same calls made
 * by another business's owner answer 404, and signed out 401. A route added later with a path parameter fails
 * the walk until it is classified below.
 */

type Ids = {
  locationA: string;
  locationB: string;
  enquiryB: string;
  messageB: string;
  customerA: string;
  customerB: string;
  noteB: string;
  customerNoteB: string;
  templateB: string;
  invoiceB: string;
  invoiceNone: string;
  uploadB: string;
  callSidB: string;
  playB: string;
  channelB: string;
  phoneB: string;
  emailB: string;
  label: string;
  staff2: string;
  widgetFields: unknown;
};
type Call = { params: Record<string, string>; body?: unknown };
type Route = (ids: Ids) => Call;

const id = (value: string) => ({ id: value });

/** Location-bound: a limited staff member asking for another location's object is told it does not exist. */
const WALK: Record<string, Route> = {
  'GET /api/v1/enquiries/:id': (i) => ({ params: id(i.enquiryB) }),
  'PATCH /api/v1/enquiries/:id': (i) => ({ params: id(i.enquiryB), body: { status: 'closed' } }),
  'GET /api/v1/enquiries/:id/draft': (i) => ({ params: id(i.enquiryB) }),
  'PUT /api/v1/enquiries/:id/draft': (i) => ({ params: id(i.enquiryB), body: { message: 'draft' } }),
  'DELETE /api/v1/enquiries/:id/draft': (i) => ({ params: id(i.enquiryB) }),
  'GET /api/v1/enquiries/:id/messages': (i) => ({ params: id(i.enquiryB) }),
  'POST /api/v1/enquiries/:id/messages': (i) => ({ params: id(i.enquiryB), body: { message: 'hello' } }),
  'PUT /api/v1/enquiries/:id/needs-person': (i) => ({ params: id(i.enquiryB), body: { needs_person: true } }),
  'GET /api/v1/enquiries/:id/notes': (i) => ({ params: id(i.enquiryB) }),
  'POST /api/v1/enquiries/:id/notes': (i) => ({ params: id(i.enquiryB), body: { body: 'a note' } }),
  'PUT /api/v1/enquiries/:id/mentions/read': (i) => ({ params: id(i.enquiryB) }),
  'GET /api/v1/enquiries/:id/reply-route': (i) => ({ params: id(i.enquiryB) }),
  'PUT /api/v1/enquiries/:id/seen': (i) => ({ params: id(i.enquiryB), body: { seen: true } }),
  'GET /api/v1/enquiries/:id/templates': (i) => ({ params: id(i.enquiryB) }),
  'GET /api/v1/enquiries/:id/whatsapp-templates': (i) => ({ params: id(i.enquiryB) }),
  'POST /api/v1/enquiries/:id/whatsapp-template': (i) => ({
    params: id(i.enquiryB),
    body: { name: 'hello_world', language: 'en' },
  }),
  'GET /api/v1/business/customer-invoices/:id': (i) => ({ params: id(i.invoiceB) }),
  'PUT /api/v1/business/customer-invoices/:id': (i) => ({
    params: id(i.invoiceB),
    body: { notes: 'changed' },
  }),
  'DELETE /api/v1/business/customer-invoices/:id': (i) => ({ params: id(i.invoiceB) }),
  'GET /api/v1/business/customer-invoices/:id/pdf': (i) => ({ params: id(i.invoiceB) }),
  'POST /api/v1/business/customer-invoices/:id/send': (i) => ({ params: id(i.invoiceB), body: {} }),
  'GET /api/v1/customers/:id': (i) => ({ params: id(i.customerB) }),
  'PATCH /api/v1/customers/:id': (i) => ({ params: id(i.customerB), body: { name: 'Renamed' } }),
  'POST /api/v1/customers/:id/merge': (i) => ({ params: id(i.customerB), body: { other_id: i.customerA } }),
  'POST /api/v1/customers/:id/notes': (i) => ({ params: id(i.customerB), body: { body: 'a note' } }),
  'DELETE /api/v1/customers/:id/notes/:noteId': (i) => ({
    params: { id: i.customerB, noteId: i.customerNoteB },
  }),
  'GET /api/v1/business/locations/:id': (i) => ({ params: id(i.locationB) }),
  'GET /api/v1/business/locations/:id/limits': (i) => ({ params: id(i.locationB) }),
  'GET /api/v1/business/locations/:id/review-reminders': (i) => ({ params: id(i.locationB) }),
  'GET /api/v1/business/locations/:id/tracking-numbers': (i) => ({ params: id(i.locationB) }),
  'GET /api/v1/business/locations/:id/widget': (i) => ({ params: id(i.locationB) }),
  'GET /api/v1/channels/:id/whatsapp-templates': (i) => ({ params: id(i.channelB) }),
  'GET /api/v1/uploads/:id/content': (i) => ({ params: id(i.uploadB) }),
  'POST /api/v1/sandbox/calls/:id/recording': (i) => ({ params: id(i.callSidB) }),
  'POST /api/v1/business/ai/messages/:id/rating': (i) => ({
    params: id(i.messageB),
    body: { rating: 'down' },
  }),
  'GET /api/v1/business/ai/enquiries/:id/messages': (i) => ({ params: id(i.playB) }),
};

/** The owner's calls (and the Switchboard administrator's): staff are refused before anything is looked up. */
const OWNER_ONLY: Record<string, Route> = {
  // Releasing a number bought through the platform's account: owners only, before the number is looked up.
  'DELETE /api/v1/channels/numbers/:id': (i) => ({ params: id(i.locationB) }),
  'POST /api/v1/business/customer-invoices/:id/void': (i) => ({ params: id(i.invoiceB) }),
  'POST /api/v1/business/customer-invoices/:id/refund': (i) => ({ params: id(i.invoiceB), body: {} }),
  'POST /api/v1/business/customer-invoices/:id/refund-unowed': (i) => ({ params: id(i.invoiceB), body: {} }),
  'POST /api/v1/business/toggle-stripe-charge-rate/:id': (i) => ({
    params: id(i.locationB),
    body: { enabled: true },
  }),
  'PATCH /api/v1/business/locations/:id': (i) => ({ params: id(i.locationB), body: { name: 'Renamed' } }),
  'DELETE /api/v1/business/locations/:id': (i) => ({ params: id(i.locationB) }),
  'PUT /api/v1/business/locations/:id/limits': (i) => ({
    params: id(i.locationB),
    body: { chats_per_ip: 5, messages_per_visitor: 5, forms_per_ip: 5 },
  }),
  'PUT /api/v1/business/locations/:id/review-reminders': (i) => ({
    params: id(i.locationB),
    body: { enabled: false },
  }),
  'POST /api/v1/business/locations/:id/tracking-numbers': (i) => ({
    params: id(i.locationB),
    body: { number: '+61491570199', source: 'flyer' },
  }),
  'DELETE /api/v1/business/locations/:id/tracking-numbers/:trackingId': (i) => ({
    params: { id: i.locationB, trackingId: i.locationB },
  }),
  'PATCH /api/v1/business/locations/:id/update-review-template': (i) => ({
    params: id(i.locationB),
    body: { review_message: 'Hi {first_name}' },
  }),
  'PUT /api/v1/business/locations/:id/widget': (i) => ({
    params: id(i.locationB),
    body: { color: '#112233', greeting: null, fields: i.widgetFields },
  }),
  'POST /api/v1/business/locations/purchase-number/:id': (i) => ({
    params: id(i.locationB),
    body: { country: 'AU' },
  }),
  'GET /api/v1/channels/:id': (i) => ({ params: id(i.channelB) }),
  'PATCH /api/v1/channels/:id': (i) => ({ params: id(i.channelB), body: { location_id: i.locationA } }),
  'DELETE /api/v1/channels/:id': (i) => ({ params: id(i.channelB) }),
  'POST /api/v1/channels/:id/calling': (i) => ({ params: id(i.channelB), body: { enabled: true } }),
  'PUT /api/v1/templates/:id': (i) => ({ params: id(i.templateB), body: { name: 'Renamed' } }),
  'DELETE /api/v1/templates/:id': (i) => ({ params: id(i.templateB) }),
  'PUT /api/v1/business/mybusiness/phone/:id': (i) => ({ params: id(i.phoneB), body: { label: 'Renamed' } }),
  'DELETE /api/v1/business/mybusiness/phone/:id': (i) => ({ params: id(i.phoneB) }),
  'PUT /api/v1/business/mybusiness/email/:id': (i) => ({ params: id(i.emailB), body: { label: 'Renamed' } }),
  'DELETE /api/v1/business/mybusiness/email/:id': (i) => ({ params: id(i.emailB) }),
  'PUT /api/v1/business/ai-auto-reply/toggle/:action': (i) => ({
    params: { action: 'auto' },
    body: { location_id: i.locationB },
  }),
  'POST /api/v1/business/ai/messages/:id': (i) => ({ params: id(i.playB), body: { message: 'hi' } }),
  'DELETE /api/v1/business/members/:id': (i) => ({ params: id(i.staff2) }),
  'PUT /api/v1/business/members/:id/locations': (i) => ({
    params: id(i.staff2),
    body: { location_ids: [i.locationB] },
  }),
  'DELETE /api/v1/business/members/invitations/:id': (i) => ({ params: id(i.staff2) }),
  'PUT /api/v1/labels/:id': (i) => ({ params: id(i.label), body: { name: 'Renamed', colour: '#112233' } }),
  'DELETE /api/v1/labels/:id': (i) => ({ params: id(i.label) }),
};

/**
 * Routes with a path parameter that names nothing of one location, each with why. The assistant's knowledge,
 * flows and tools are the business's (only the owner changes them; staff answer 403 there too, but a made-up id
 * is all another business could try).
 */
const NOT_LOCATION_BOUND: Record<string, string> = {
  'GET /api/v1/admin/businesses/:id': 'Switchboard administrators only: every business’s people get 403',
  'PATCH /api/v1/admin/businesses/:id': 'Switchboard administrators only',
  'POST /api/v1/admin/businesses/:id/open': 'Switchboard administrators only',
  'GET /api/v1/admin/businesses/:id/numbers': 'Switchboard administrators only',
  'PATCH /api/v1/admin/numbers/:id': 'Switchboard administrators only',
  'PUT /api/v1/business/ai-flows/:id': 'the assistant’s flows are the business’s; owner only',
  'DELETE /api/v1/business/ai-flows/:id': 'the assistant’s flows are the business’s; owner only',
  'PUT /api/v1/business/ai/documents/:id': 'the assistant’s documents are the business’s; owner only',
  'DELETE /api/v1/business/ai/documents/:id': 'the assistant’s documents are the business’s; owner only',
  'POST /api/v1/business/ai/documents/:id/crawl': 'the assistant’s documents are the business’s; owner only',
  'PUT /api/v1/business/ai/faqs/:id': 'the assistant’s FAQs are the business’s; owner only',
  'DELETE /api/v1/business/ai/faqs/:id': 'the assistant’s FAQs are the business’s; owner only',
  'PUT /api/v1/business/ai/tools/:id': 'the assistant’s tools are the business’s; owner only',
  'DELETE /api/v1/business/ai/tools/:id': 'the assistant’s tools are the business’s; owner only',
  'POST /api/v1/business/ai/tools/:id/test': 'the assistant’s tools are the business’s; owner only',
  'GET /api/v1/user/me/sounds/:id': 'a person’s own sound, in every business they open',
  'GET /api/v1/business/invitations/:secret': 'no login: the invitation’s secret is the key',
  'POST /api/v1/business/invitations/:secret/accept': 'no login: the invitation’s secret is the key',
  'GET /api/v1/business/invoices/secret/:id': 'the customer’s pay page: the link’s secret is the key',
  'POST /api/v1/business/invoices/secret/:id/checkout': 'the customer’s pay page',
  'GET /api/v1/business/invoices/secret/:id/pdf': 'the customer’s pay page',
  'GET /api/v1/sandbox/checkout/:id': 'the sandbox payment page a customer is sent to',
  'POST /api/v1/sandbox/checkout/:id': 'the sandbox payment page a customer is sent to',
  'GET /api/v1/sandbox/billing/:id': 'the sandbox plan checkout of the business’s own subscription',
  'POST /api/v1/sandbox/billing/:id': 'the sandbox plan checkout of the business’s own subscription',
  'GET /api/v1/public/images/:id': 'public on purpose: images shown in the widget, emails and invoices',
  'GET /api/v1/public/fonts/:font/:weight': 'fonts shipped with the product',
  'GET /media/:id': 'media handed to providers by a signed link',
  'GET /r/:token': 'the review link a customer is sent',
  'GET /webhooks/forms/:token': 'a website form’s webhook: the token is the key',
  'POST /webhooks/forms/:token': 'a website form’s webhook: the token is the key',
  'GET /widget-api/locations/:id/config': 'the public chat widget of a location’s website',
  'POST /widget-api/locations/:id/sessions': 'the public chat widget of a location’s website',
  'GET /widget/assets/:file': 'the chat frame’s files',
};

/** Each method and path with a parameter in the route table. */
function routesWithParams(t: TestApp): string[] {
  return t.app.routeTable
    .filter((r) => r.url.includes('/:') && !r.url.includes('*'))
    .flatMap((r) => (Array.isArray(r.method) ? r.method : [r.method]).map((m) => `${m} ${r.url}`))
    .filter((key) => !key.startsWith('HEAD ') && !key.startsWith('OPTIONS '));
}

function urlOf(key: string, params: Record<string, string>): [string, string] {
  const [method, path] = key.split(' ') as [string, string];
  return [method, path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params[name]!))];
}

/** Everything the business holds that a walk could change, as JSON text. */
async function snapshot(t: TestApp, businessId: string): Promise<string> {
  const tables = [
    'enquiries',
    'messages',
    'drafts',
    'enquiry_notes',
    'customers',
    'customer_notes',
    'invoices',
    'message_templates',
    'locations',
    'calls',
    'tracking_numbers',
    'uploads',
    'review_requests',
    'ai_ratings',
    'channel_accounts',
    'business_phones',
    'business_emails',
    'labels',
    'business_members',
  ];
  const parts: string[] = [];
  for (const table of tables) {
    const rows = await queryRows<{ row: unknown }>(
      t.app.db,
      sql`select to_jsonb(x) as row from ${sql.identifier(table)} x where x.business_id = ${businessId}::uuid
          order by x::text`,
    );
    parts.push(`${table}: ${JSON.stringify(rows.map((r) => r.row))}`);
  }
  const items = await queryRows<{ row: unknown }>(
    t.app.db,
    sql`select to_jsonb(x) as row from invoice_items x join invoices i on i.id = x.invoice_id
        where i.business_id = ${businessId}::uuid order by x::text`,
  );
  parts.push(`invoice_items: ${JSON.stringify(items.map((r) => r.row))}`);
  return parts.join('\n');
}

describe('the route walk of a staff member limited to one location', () => {
  let t: TestApp;
  let fake: FakeProvider;
  let owner: string;
  let staff: string;
  let north: string;
  let businessId: string;
  const ids = {} as Ids;

  const call = async (key: string, c: Call, token?: string) => {
    const [method, url] = urlOf(key, c.params);
    const res = await t.request({
      method: method as 'GET',
      url,
      ...(token ? { token } : {}),
      ...(c.body === undefined ? {} : { payload: c.body as Json }),
    });
    return { status: res.statusCode, body: res.body };
  };
  const api = async (method: string, url: string, token: string, payload?: unknown) => {
    const res = await t.request({
      method: method as 'GET',
      url: `/api/v1${url}`,
      token,
      payload: payload as Json,
    });
    if (res.statusCode !== 200) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.json().body as Json;
  };

  beforeAll(async () => {
    // Provider APIs on a fake, which confirms the WhatsApp number belongs to the account connected below.
    fake = await FakeProvider.start();
    t = await channelTestApp(fake);
    owner = await t.login(DEMO_LOGINS.owner);
    staff = await t.login(DEMO_LOGINS.staff1);
    north = await t.login(DEMO_LOGINS.northsideOwner);
    const me = await getMe(t, owner);
    const business = me.businesses.find((b) => b.selected)!;
    businessId = business.id;
    [ids.locationA, ids.locationB] = business.locations.map((l) => l.id) as [string, string];
    const staffMe = await getMe(t, staff);
    const staff2 = await getMe(t, await t.login(DEMO_LOGINS.staff2));
    ids.staff2 = staff2.id;

    const atA = await inbound(t, owner, {
      location_id: ids.locationA,
      from: { phone: '+61491570601', name: 'Ada Alpha' },
      message: 'at A',
    });
    const atB = await inbound(t, owner, {
      location_id: ids.locationB,
      from: { phone: '+61491570602', name: 'Bea Beta' },
      message: 'at B',
    });
    ids.enquiryB = atB.enquiry_id;
    ids.messageB = atB.message.id;
    ids.customerA = (await api('GET', `/enquiries/${atA.enquiry_id}`, owner)).customer_id;
    ids.customerB = (await api('GET', `/enquiries/${atB.enquiry_id}`, owner)).customer_id;
    ids.noteB = (await api('POST', `/enquiries/${ids.enquiryB}/notes`, owner, { body: 'about B' })).id;
    const withNote = await api('POST', `/customers/${ids.customerB}/notes`, owner, { body: 'private' });
    ids.customerNoteB = withNote.notes[0].id;
    ids.templateB = (
      await api('POST', '/templates', owner, {
        name: 'B only',
        body: 'Hi from B',
        location_id: ids.locationB,
      })
    ).id;
    const line = [{ description: 'Clean', quantity: 1, unit_price_cents: 12000, tax_rate: 10 }];
    ids.invoiceB = (
      await api('POST', '/business/customer-invoices', owner, { enquiry_id: ids.enquiryB, items: line })
    ).id;
    ids.invoiceNone = (
      await api('POST', '/business/customer-invoices', owner, {
        customer_id: ids.customerA,
        location_id: null,
        items: line,
      })
    ).id;
    const file = await fileUpload('file', 'x-ray.txt', 'text/plain', Buffer.from('B’s x-ray notes'));
    const uploaded = await t.request({ method: 'POST', url: '/api/v1/uploads', token: owner, ...file });
    ids.uploadB = uploaded.json().body.id;
    const sent = await api('POST', `/enquiries/${ids.enquiryB}/messages`, owner, {
      message: '',
      attachments: [ids.uploadB],
    });
    // The sandbox delivers it a moment later: the walk's snapshots start after that.
    await eventually(async () => {
      const [m] = await queryRows<{ status: string }>(
        t.app.db,
        sql`select status from messages where id = ${sent.id}::uuid`,
      );
      return m?.status === 'delivered';
    });
    ids.callSidB = `SB${'b'.repeat(32)}`;
    await t.app.db.insert(calls).values({
      business_id: businessId,
      location_id: ids.locationB,
      enquiry_id: ids.enquiryB,
      message_id: ids.messageB,
      customer_id: ids.customerB,
      direction: 'in',
      from_number: '+61491570602',
      to_number: '+61491570156',
      status: 'completed',
      provider: 'sandbox',
      provider_call_sid: ids.callSidB,
    });
    const [play] = await t.app.db
      .insert(aiEnquiries)
      .values({
        business_id: businessId,
        user_id: me.id,
        location_id: ids.locationB,
        title: 'Conversation 1',
      })
      .returning();
    ids.playB = play!.id;
    ids.channelB = (
      await connect(t, owner, {
        location_id: ids.locationB,
        provider: 'whatsapp',
        config: {
          phone_number_id: '100000000000602',
          waba_id: '100000000000601',
          access_token: 'EAAGwhatsapptoken0602',
          app_secret: 'abcdef0123456789abcdef0123456789',
          verify_token: 'walk-verify-token',
        },
      })
    ).id;
    ids.widgetFields = (await api('GET', `/business/locations/${ids.locationB}/widget`, owner)).fields;
    const phones = await api('GET', '/business/mybusiness/phone', owner);
    ids.phoneB = (phones.items.find((p: Json) => p.location_id === ids.locationB) ?? phones.items[0]).id;
    const emails = await api('GET', '/business/mybusiness/email', owner);
    ids.emailB = emails.items[0]?.id ?? ids.locationB;
    ids.label = (await api('POST', '/labels', owner, { name: 'VIP', colour: '#1E75FF' })).id;

    await api('PUT', `/business/members/${staffMe.id}/locations`, owner, { location_ids: [ids.locationA] });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('knows every route with a path parameter: walked, owner only, or not bound to a location (and why)', () => {
    const known = new Set([
      ...Object.keys(WALK),
      ...Object.keys(OWNER_ONLY),
      ...Object.keys(NOT_LOCATION_BOUND),
    ]);
    const routes = routesWithParams(t);
    expect(routes.filter((r) => !known.has(r))).toEqual([]);
    // Nothing classified that the app no longer has.
    expect([...known].filter((r) => !routes.includes(r))).toEqual([]);
  });

  it('the ids are real: the owner, who works at every location, finds each of them', async () => {
    for (const [key, route] of Object.entries(WALK)) {
      // Reads only (the walk's writes must find everything as it was); a playground conversation is its maker's,
      // and a channel's templates are fetched from Meta, out of reach here.
      if (!key.startsWith('GET ') || key.includes('/ai/enquiries/') || key.includes('/channels/')) continue;
      const res = await call(key, route(ids), owner);
      // A WhatsApp template list of an SMS conversation is refused as such (422): the enquiry was found.
      expect([200, 422], `${key}: ${res.body}`).toContain(res.status);
    }
  });

  it('answers a limited staff member 404 for every object of another location, and changes nothing', async () => {
    const before = await snapshot(t, businessId);
    const wrong: string[] = [];
    for (const [key, route] of Object.entries(WALK)) {
      const res = await call(key, route(ids), staff);
      if (res.status !== 404) wrong.push(`${key}: ${res.status} ${res.body.slice(0, 200)}`);
    }
    for (const [key, route] of Object.entries(OWNER_ONLY)) {
      const res = await call(key, route(ids), staff);
      if (res.status !== 403) wrong.push(`${key}: ${res.status} ${res.body.slice(0, 200)} (owner only)`);
    }
    expect(wrong).toEqual([]);
    expect(await snapshot(t, businessId)).toBe(before);
  });

  it('an invoice of no location is only for those who work at every location', async () => {
    const path = `/api/v1/business/customer-invoices/${ids.invoiceNone}`;
    expect((await t.request({ method: 'GET', url: path, token: staff })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: `${path}/pdf`, token: staff })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: path, token: owner })).statusCode).toBe(200);
  });

  it('answers another business’s owner 404 for the same ids, and changes nothing', async () => {
    const before = await snapshot(t, businessId);
    const wrong: string[] = [];
    for (const [key, route] of Object.entries({ ...WALK, ...OWNER_ONLY })) {
      const res = await call(key, route(ids), north);
      if (res.status !== 404) wrong.push(`${key}: ${res.status} ${res.body.slice(0, 200)}`);
    }
    expect(wrong).toEqual([]);
    expect(await snapshot(t, businessId)).toBe(before);
  });

  it('answers 401 to someone signed out', async () => {
    const wrong: string[] = [];
    for (const [key, route] of Object.entries({ ...WALK, ...OWNER_ONLY })) {
      const res = await call(key, route(ids));
      if (res.status !== 401) wrong.push(`${key}: ${res.status}`);
    }
    expect(wrong).toEqual([]);
  });
});
