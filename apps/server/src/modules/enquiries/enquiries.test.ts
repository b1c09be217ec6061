import { enquiries, locations } from '@switchboard/db';
import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  DEMO_LOGINS,
  getMe,
  inbound,
  selectedLocation,
  type TestApp,
} from '../../test/helpers.ts';

type Row = {
  id: string;
  customer: { name: string };
  channel: string;
  last_message: string;
  status: string;
  assigned_to: string | null;
  seen: boolean;
};

describe('the inbox: enquiries', () => {
  let t: TestApp;
  let owner: string;
  let staff1: string;
  let staff1Id: string;
  let north: string;
  let loc: string;

  const list = async (query = '', token = owner) => {
    const res = await t.request({ method: 'GET', url: `/api/v1/enquiries${query}`, token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().body as { items: Row[]; total: number | null; has_more: boolean };
  };

  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.login(DEMO_LOGINS.owner);
    staff1 = await t.login(DEMO_LOGINS.staff1);
    north = await t.login(DEMO_LOGINS.northsideOwner);
    staff1Id = (await getMe(t, staff1)).id;
    loc = await selectedLocation(t, owner);
  });
  afterAll(() => t.close());

  it('turns a customer message into an unread, unassigned open enquiry with a preview and counts it', async () => {
    const { enquiry_id } = await inbound(t, owner, {
      location_id: loc,
      from: { phone: '0491 570 006', name: 'Jamie Customer' },
      message: 'Hi, are you open Saturday?',
    });
    const { items, total } = await list();
    expect(items[0]).toMatchObject({
      id: enquiry_id,
      customer: { name: 'Jamie Customer' },
      channel: 'sms',
      last_message: 'Hi, are you open Saturday?',
      status: 'open',
      assigned_to: null,
      seen: false,
    });
    expect(total).toBe(1);
    const counts = (await t.request({ method: 'GET', url: '/api/v1/enquiries/counts', token: owner })).json()
      .body;
    expect(counts).toMatchObject({ unassigned_count_open: 1, assigned_count_open: 0 });

    // The same customer writing again continues the same enquiry.
    const again = await inbound(t, owner, {
      location_id: loc,
      from: { phone: '+61491570006' },
      message: 'Or Sunday?',
    });
    expect(again.enquiry_id).toBe(enquiry_id);
    expect((await list()).items[0]!.last_message).toBe('Or Sunday?');
  });

  it('filters by view, channel, source, text and date range, newest activity first, paged', async () => {
    await inbound(t, owner, {
      channel: 'email',
      location_id: loc,
      from: { email: 'pat@example.com', name: 'Pat Email' },
      message: 'Invoice question',
      subject: 'Invoice',
    });
    await inbound(t, owner, {
      channel: 'whatsapp',
      location_id: loc,
      from: { phone: '+61491570007', name: 'Wes App' },
      message: 'Need a filling',
      source: 'google',
      medium: 'cpc',
    });
    const all = await list('?page_size=2');
    expect(all.items.map((r) => r.customer.name)).toEqual(['Wes App', 'Pat Email']);
    expect(all.has_more).toBe(true);
    expect((await list('?page_size=2&page=2')).items.map((r) => r.customer.name)).toEqual(['Jamie Customer']);

    expect((await list('?channels=email,whatsapp')).items).toHaveLength(2);
    expect((await list('?channels=email')).items.map((r) => r.channel)).toEqual(['email']);
    expect((await list('?source=google&medium=cpc')).items.map((r) => r.customer.name)).toEqual(['Wes App']);
    expect((await list('?q=filling')).items.map((r) => r.customer.name)).toEqual(['Wes App']);
    expect((await list('?q=pat@exam')).items.map((r) => r.customer.name)).toEqual(['Pat Email']);
    expect((await list('?q=Saturday')).items.map((r) => r.customer.name)).toEqual(['Jamie Customer']);
    // Dates are days in the business's timezone (Melbourne), which may already be tomorrow in UTC.
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    expect((await list(`?start_date=2020-01-01&end_date=${tomorrow}`)).items).toHaveLength(3);
    expect((await list('?start_date=2020-01-01&end_date=2020-01-31')).items).toHaveLength(0);
    expect((await list('?view=unassigned')).items).toHaveLength(3);
    expect((await list('?view=mine')).items).toHaveLength(0);
    expect((await list('?status=closed')).items).toHaveLength(0);
  });

  it('assigns, closes and reopens with the counters moving in step', async () => {
    const target = (await list('?channels=whatsapp')).items[0]!;
    const assign = await t.request({
      method: 'PATCH',
      url: `/api/v1/enquiries/${target.id}`,
      token: owner,
      payload: { assigned_to: staff1Id },
    });
    expect(assign.statusCode).toBe(200);
    expect(assign.json().body.assigned_to).toBe(staff1Id);
    expect((await list('?view=mine', staff1)).items.map((r) => r.id)).toEqual([target.id]);
    expect((await list(`?assigned_to=${staff1Id}`)).items.map((r) => r.id)).toEqual([target.id]);

    const close = await t.request({
      method: 'PATCH',
      url: `/api/v1/enquiries/${target.id}`,
      token: staff1,
      payload: { status: 'closed' },
    });
    expect(close.json().body.status).toBe('closed');
    expect((await list('?status=closed')).items.map((r) => r.id)).toEqual([target.id]);
    const counts = (await t.request({ method: 'GET', url: '/api/v1/enquiries/counts', token: owner })).json()
      .body;
    expect(counts).toMatchObject({
      unassigned_count_open: 2,
      assigned_count_open: 0,
      assigned_count_closed: 1,
      unassigned_count_closed: 0,
    });
    const me = await getMe(t, owner);
    expect(me.businesses[0]!.locations[0]).toMatchObject({
      assigned_count_closed: 1,
      unassigned_count_open: 2,
    });

    await t.request({
      method: 'PATCH',
      url: `/api/v1/enquiries/${target.id}`,
      token: owner,
      payload: { status: 'open', assigned_to: null },
    });
    const after = (await t.request({ method: 'GET', url: '/api/v1/enquiries/counts', token: owner })).json()
      .body;
    expect(after).toMatchObject({
      unassigned_count_open: 3,
      assigned_count_open: 0,
      assigned_count_closed: 0,
      unassigned_count_closed: 0,
    });
  });

  it('marks an enquiry read', async () => {
    const target = (await list()).items[0]!;
    const res = await t.request({ method: 'PUT', url: `/api/v1/enquiries/${target.id}/seen`, token: staff1 });
    expect(res.json().body.seen).toBe(true);
    expect(
      (await t.request({ method: 'GET', url: `/api/v1/enquiries/${target.id}`, token: owner })).json().body
        .seen,
    ).toBe(true);
  });

  it('keeps the counters exact under concurrent assigning and closing, never below zero', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) {
      ids.push(
        (
          await inbound(t, owner, {
            location_id: loc,
            from: { phone: `+6149157010${i}` },
            message: `load ${i}`,
          })
        ).enquiry_id,
      );
    }
    const staff2 = await t.login(DEMO_LOGINS.staff2);
    const staff2Id = (await getMe(t, staff2)).id;
    const patches = [
      { assigned_to: staff1Id },
      { status: 'closed' },
      { assigned_to: staff2Id },
      { assigned_to: null },
      { status: 'open' },
      { status: 'closed', assigned_to: staff1Id },
    ];
    await Promise.all(
      ids.flatMap((id, i) =>
        patches.map((payload, j) =>
          t.request({
            method: 'PATCH',
            url: `/api/v1/enquiries/${id}`,
            token: (i + j) % 2 ? staff1 : owner,
            payload,
          }),
        ),
      ),
    );
    const actual = async (assigned: boolean, status: 'open' | 'closed') => {
      const rows = await t.database.db
        .select({ n: sql<number>`count(*)::int` })
        .from(enquiries)
        .where(
          and(
            eq(enquiries.location_id, loc),
            eq(enquiries.status, status),
            assigned ? isNotNull(enquiries.assigned_to) : isNull(enquiries.assigned_to),
          ),
        );
      return rows[0]!.n;
    };
    const [stored] = await t.database.db.select().from(locations).where(eq(locations.id, loc));
    expect(stored!.assigned_count_open).toBe(await actual(true, 'open'));
    expect(stored!.assigned_count_closed).toBe(await actual(true, 'closed'));
    expect(stored!.unassigned_count_open).toBe(await actual(false, 'open'));
    expect(stored!.unassigned_count_closed).toBe(await actual(false, 'closed'));
    for (const v of [
      stored!.assigned_count_open,
      stored!.assigned_count_closed,
      stored!.unassigned_count_open,
      stored!.unassigned_count_closed,
    ]) {
      expect(v).toBeGreaterThanOrEqual(0);
    }
  });

  it('never shows another business its enquiries: 404 for every route, nothing in its lists', async () => {
    const target = (await list()).items[0]!;
    const routes = [
      { method: 'GET', url: `/api/v1/enquiries/${target.id}` },
      { method: 'PATCH', url: `/api/v1/enquiries/${target.id}`, payload: { status: 'closed' } },
      { method: 'PUT', url: `/api/v1/enquiries/${target.id}/seen` },
      { method: 'GET', url: `/api/v1/enquiries/${target.id}/messages` },
      { method: 'POST', url: `/api/v1/enquiries/${target.id}/messages`, payload: { message: 'hi' } },
      { method: 'GET', url: `/api/v1/enquiries/${target.id}/draft` },
      { method: 'PUT', url: `/api/v1/enquiries/${target.id}/draft`, payload: { message: 'x' } },
      { method: 'DELETE', url: `/api/v1/enquiries/${target.id}/draft` },
    ] as const;
    for (const route of routes) {
      const res = await t.request({ ...route, token: north });
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(404);
      expect(res.json().message).toBe('Enquiry not found!');
    }
    expect((await list('', north)).items).toHaveLength(0);
    expect(await list(`?location_id=${loc}`, north).catch(() => null)).toBeNull();
    const still = (
      await t.request({ method: 'GET', url: `/api/v1/enquiries/${target.id}`, token: owner })
    ).json().body;
    expect(still.status).toBe(target.status);
  });

  it('refuses bad input with a 400 or 422 that says what is wrong, and changes nothing', async () => {
    const target = (await list()).items[0]!;
    const cases = [
      { url: '/api/v1/enquiries?status=archived', status: 400, match: /status/i },
      { url: '/api/v1/enquiries?page_size=1000', status: 400, match: /page.size/i },
      { url: '/api/v1/enquiries?page=0', status: 400, match: /page/i },
      { url: '/api/v1/enquiries?assigned_to=nobody', status: 400, match: /assigned.to/i },
      { url: '/api/v1/enquiries?bogus=1', status: 400, match: /bogus|Unrecognized/i },
      { url: '/api/v1/enquiries?start_date=2024-05-02&end_date=2024-05-01', status: 400, match: /after/i },
      { url: '/api/v1/enquiries?start_date=yesterday', status: 400, match: /date|valid/i },
      { url: '/api/v1/enquiries/not-a-uuid', status: 404, match: /Enquiry not found!/i },
    ];
    for (const c of cases) {
      const res = await t.request({ method: 'GET', url: c.url, token: owner });
      expect(res.statusCode, c.url).toBe(c.status);
      expect(res.json().message, c.url).toMatch(c.match);
    }
    const patches = [
      { payload: { status: 'archived' }, status: 400 },
      { payload: {}, status: 400 },
      { payload: { assigned_to: 'x' }, status: 400 },
      { payload: { title: 5 }, status: 400 },
      { payload: { assigned_to: (await getMe(t, north)).id }, status: 422 },
    ];
    for (const p of patches) {
      const res = await t.request({
        method: 'PATCH',
        url: `/api/v1/enquiries/${target.id}`,
        token: owner,
        payload: p.payload,
      });
      expect(res.statusCode, JSON.stringify(p.payload)).toBe(p.status);
      expect(res.json().message).toBeTruthy();
    }
    const after = (
      await t.request({ method: 'GET', url: `/api/v1/enquiries/${target.id}`, token: owner })
    ).json().body;
    expect(after).toMatchObject({ status: target.status, assigned_to: target.assigned_to });
  });
});
