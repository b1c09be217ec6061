import type { ClientToServerEvents, ServerToClientEvents } from '@switchboard/shared';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiClient,
  createTestApp,
  DEMO_LOGINS,
  eventually,
  fileUpload,
  getMe,
  inbound,
  type Json,
  listen,
  openSocket,
  type TestApp,
} from '../../test/helpers.ts';

type Client = Socket<ServerToClientEvents, ClientToServerEvents>;

/**
 * The business's records as a staff member limited to one location (A) sees them: invoices, customers, review
 * requests and files of that location only, in lists, searches, exports and stats as by id, and live.
 */
describe('the records a staff member limited to one location sees', () => {
  let t: TestApp;
  let url: string;
  let owner: string;
  let staff: string;
  let staffId: string;
  let a: string;
  let b: string;
  const e = {} as Record<'ada' | 'bea' | 'cyA' | 'cyB', string>;
  const c = {} as Record<'ada' | 'bea' | 'cy', string>;
  const inv = {} as Record<'a' | 'b' | 'none', Json>;
  const clients: Client[] = [];
  const api = (...args: Parameters<ReturnType<typeof apiClient>>) => apiClient(t)(...args);
  const ok = async (...args: Parameters<ReturnType<typeof apiClient>>) => {
    const res = await api(...args);
    if (res.status !== 200)
      throw new Error(`${args[0]} ${args[1]}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.body as Json;
  };
  const line = [{ description: 'Check-up', quantity: 1, unit_price_cents: 9000, tax_rate: 10 }];

  beforeAll(async () => {
    t = await createTestApp();
    url = await listen(t);
    owner = await t.login(DEMO_LOGINS.owner);
    staff = await t.login(DEMO_LOGINS.staff1);
    staffId = (await getMe(t, staff)).id;
    const business = (await getMe(t, owner)).businesses.find((x) => x.selected)!;
    [a, b] = business.locations.map((l) => l.id) as [string, string];
    const write = async (location_id: string, phone: string, name: string) =>
      (await inbound(t, owner, { location_id, from: { phone, name }, message: `hello from ${name}` }))
        .enquiry_id;
    e.ada = await write(a, '+61491570701', 'Ada Alpha');
    e.bea = await write(b, '+61491570702', 'Bea Beta');
    e.cyA = await write(a, '+61491570703', 'Cy Both');
    e.cyB = await write(b, '+61491570703', 'Cy Both');
    for (const [k, enquiry] of [
      ['ada', e.ada],
      ['bea', e.bea],
      ['cy', e.cyA],
    ] as const)
      c[k] = (await ok('GET', `/enquiries/${enquiry}`, owner)).customer_id;
    inv.a = await ok('POST', '/business/customer-invoices', owner, { enquiry_id: e.ada, items: line });
    inv.b = await ok('POST', '/business/customer-invoices', owner, { enquiry_id: e.bea, items: line });
    inv.none = await ok('POST', '/business/customer-invoices', owner, {
      customer_id: c.cy,
      location_id: null,
      items: line,
    });
    for (const location of [a, b])
      await ok('PATCH', `/business/locations/${location}/update-review-template`, owner, {
        review_link: 'https://search.google.com/local/writereview?placeid=ChIJwalk',
      });
    await ok('POST', '/business/review-requests', owner, { enquiry_id: e.ada });
    await ok('POST', '/business/review-requests', owner, { enquiry_id: e.bea });
    await ok('PUT', `/business/members/${staffId}/locations`, owner, { location_ids: [a] });
  });
  afterAll(async () => {
    for (const client of clients) client.disconnect();
    await t.close();
  });

  it('lists, filters, searches and exports only their location’s invoices', async () => {
    const list = await ok('GET', '/business/customer-invoices', staff);
    expect(list.items.map((i: Json) => i.id)).toEqual([inv.a.id]);
    expect(list.total).toBe(1);
    expect((await ok('GET', `/business/customer-invoices?location_id=${b}`, staff)).items).toEqual([]);
    expect((await ok('GET', `/business/customer-invoices?q=${inv.b.number}`, staff)).items).toEqual([]);
    expect((await ok('GET', `/business/customer-invoices?customer_id=${c.bea}`, staff)).total).toBe(0);
    const ownerList = await ok('GET', '/business/customer-invoices', owner);
    expect(ownerList.items.map((i: Json) => i.id)).toEqual(
      expect.arrayContaining([inv.a.id, inv.b.id, inv.none.id]),
    );

    const csv = await t.request({
      method: 'GET',
      url: '/api/v1/business/customer-invoices/export',
      token: staff,
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain(inv.a.number);
    expect(csv.body).not.toContain(inv.b.number);
    expect(csv.body).not.toContain(inv.none.number);
  });

  it('writes invoices only for their customers at their locations', async () => {
    const forBea = await api('POST', '/business/customer-invoices', staff, {
      customer_id: c.bea,
      items: line,
    });
    expect(forBea.status).toBe(404);
    expect(forBea.body.message).toBe('Customer not found.');
    expect(
      (await api('POST', '/business/customer-invoices', staff, { enquiry_id: e.bea, items: line })).status,
    ).toBe(404);
    // Named no location: theirs, not "none" (which they could not see again).
    const forCy = await ok('POST', '/business/customer-invoices', staff, { customer_id: c.cy, items: line });
    expect(forCy.location_id).toBe(a);
    const none = await api('POST', '/business/customer-invoices', staff, {
      customer_id: c.cy,
      location_id: null,
      items: line,
    });
    expect(none.status).toBe(422);
    expect(none.body.message).toMatch(/^An invoice of no location is seen only by those who work at every/);
    const moved = await api('PUT', `/business/customer-invoices/${forCy.id}`, staff, { location_id: b });
    expect(moved.status).toBe(404);
    const unplaced = await api('PUT', `/business/customer-invoices/${forCy.id}`, staff, {
      location_id: null,
    });
    expect(unplaced.status).toBe(422);
    expect((await ok('GET', `/business/customer-invoices/${forCy.id}`, staff)).location_id).toBe(a);
  });

  it('lists and searches the customers with an enquiry at their location, counting those enquiries only', async () => {
    const list = await ok('GET', '/customers?page_size=100', staff);
    const names = list.items.map((x: Json) => x.name);
    expect(names).toEqual(expect.arrayContaining(['Ada Alpha', 'Cy Both']));
    expect(names).not.toContain('Bea Beta');
    expect(list.items.find((x: Json) => x.id === c.cy).enquiry_count).toBe(1);
    expect((await ok('GET', '/customers?q=Beta', staff)).items).toEqual([]);
    expect((await ok('GET', '/customers?q=Beta', owner)).items.map((x: Json) => x.id)).toEqual([c.bea]);
    const cy = await ok('GET', `/customers/${c.cy}`, staff);
    expect(cy.enquiries.map((x: Json) => x.id)).toEqual([e.cyA]);
    // Merging needs both people in sight.
    expect((await api('POST', `/customers/${c.ada}/merge`, staff, { other_id: c.bea })).status).toBe(404);
    expect((await ok('GET', `/customers/${c.bea}`, owner)).name).toBe('Bea Beta');
  });

  it('lists review requests and their stats at their location, and asks only their customers', async () => {
    const mine = await ok('GET', '/business/review-requests', staff);
    expect(mine.items.map((r: Json) => r.customer_id)).toEqual([c.ada]);
    expect(mine.total).toBe(1);
    expect(mine.stats.sent).toBe(1);
    expect((await ok('GET', `/business/review-requests?location_id=${b}`, staff)).total).toBe(0);
    expect((await ok('GET', '/business/review-requests', owner)).stats.sent).toBe(2);
    const asked = await api('POST', '/business/review-requests', staff, {
      customer_ids: [c.bea],
      location_id: a,
    });
    expect(asked.status).toBe(404);
    expect(asked.body.message).toBe('Customer not found.');
  });

  it('attaches only files they may read', async () => {
    const file = await fileUpload('file', 'b.txt', 'text/plain', Buffer.from('only for B'));
    const up = (await t.request({ method: 'POST', url: '/api/v1/uploads', token: owner, ...file })).json()
      .body;
    await ok('POST', `/enquiries/${e.bea}/messages`, owner, { message: '', attachments: [up.id] });
    const reused = await api('POST', `/enquiries/${e.ada}/messages`, staff, {
      message: 'x',
      attachments: [up.id],
    });
    expect(reused.status).toBe(422);
    const own = await fileUpload('file', 'a.txt', 'text/plain', Buffer.from('mine'));
    const mine = (await t.request({ method: 'POST', url: '/api/v1/uploads', token: staff, ...own })).json()
      .body;
    const content = await t.request({ method: 'GET', url: mine.url, token: staff });
    expect(content.body).toBe('mine');
    await ok('POST', `/enquiries/${e.ada}/messages`, staff, { message: '', attachments: [mine.id] });
    // A teammate at the location reads what was sent there; the owner reads everything.
    expect((await t.request({ method: 'GET', url: up.url, token: owner })).body).toBe('only for B');
    expect((await t.request({ method: 'GET', url: up.url, token: staff })).statusCode).toBe(404);
  });

  it('hears live of invoices and inbox counts at their location only', async () => {
    const staffSocket = await openSocket<Client>(url, staff, clients as Socket[]);
    const ownerSocket = await openSocket<Client>(url, owner, clients as Socket[]);
    const staffHeard: string[] = [];
    const ownerHeard: string[] = [];
    const staffCounts: string[] = [];
    staffSocket.on('invoice.updated', (i) => staffHeard.push(i.id));
    ownerSocket.on('invoice.updated', (i) => ownerHeard.push(i.id));
    staffSocket.on('counts.updated', (x) => staffCounts.push(x.location_id));
    // Joining the location rooms happens just after connecting: wait for an event the staff member may hear.
    await eventually(async () => {
      await ok('PUT', `/business/customer-invoices/${inv.a.id}`, owner, { notes: 'ping' });
      return staffHeard.includes(inv.a.id);
    });

    await ok('PUT', `/business/customer-invoices/${inv.b.id}`, owner, { notes: 'for B' });
    await ok('PUT', `/business/customer-invoices/${inv.none.id}`, owner, { notes: 'for all' });
    await ok('PATCH', `/enquiries/${e.bea}`, owner, { status: 'closed' });
    await ok('PUT', `/business/customer-invoices/${inv.a.id}`, owner, { notes: 'for A' });
    await ok('PATCH', `/enquiries/${e.ada}`, owner, { status: 'closed' });
    // Events reach a socket in the order they were sent: once the last ones are heard, the earlier ones were.
    await eventually(
      async () => staffHeard.filter((id) => id === inv.a.id).length >= 2 && staffCounts.includes(a),
    );
    expect(ownerHeard).toEqual(expect.arrayContaining([inv.b.id, inv.none.id]));
    expect(staffHeard).not.toContain(inv.b.id);
    expect(staffHeard).not.toContain(inv.none.id);
    expect(staffCounts).not.toContain(b);
  });
});
