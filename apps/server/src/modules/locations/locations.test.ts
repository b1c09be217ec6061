import { auditLog, customers, enquiries } from '@switchboard/db';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DEMO_LOGINS, namedIn, type TestApp } from '../../test/helpers.ts';

type Location = {
  id: string;
  business_id: string;
  name: string | null;
  address: string | null;
  precedence: number;
  phone_number: string | null;
  [key: string]: unknown;
};

const LOCATION_KEYS = [
  'id',
  'business_id',
  'name',
  'address',
  'precedence',
  'timezone',
  'phone_number',
  'email_address',
  'google_place_id',
  'review_message',
  'review_link',
  'opening_hours',
  'holidays',
  'reply_time',
  'missed_call_text',
  'card_surcharge',
  'assigned_count_open',
  'assigned_count_closed',
  'unassigned_count_open',
  'unassigned_count_closed',
  'created_at',
  'updated_at',
].sort();

const WEEK_CLOSED = { sun: [], mon: [], tue: [], wed: [], thu: [], fri: [], sat: [] };

describe('locations', () => {
  let t: TestApp;
  let owner: string;
  let staff: string;
  let northOwner: string;
  let docklands: Location;
  let unnamed: Location;
  let brunswick: Location;

  const url = (id?: string) => (id ? `/api/v1/business/locations/${id}` : '/api/v1/business/locations');
  const list = async (token: string, query = '') => {
    const res = await t.request({ method: 'GET', url: `${url()}${query}`, token });
    expect(res.statusCode).toBe(200);
    return res.json().body as { items: Location[]; page: number; page_size: number; total: number };
  };
  const read = async (token: string, id: string) =>
    (await t.request({ method: 'GET', url: url(id), token })).json().body as Location;

  beforeAll(async () => {
    t = await createTestApp();
    [owner, staff, northOwner] = await Promise.all([
      t.login(DEMO_LOGINS.owner),
      t.login(DEMO_LOGINS.staff1),
      t.login(DEMO_LOGINS.northsideOwner),
    ]);
    [docklands, unnamed] = (await list(owner)).items as [Location, Location];
    [brunswick] = (await list(northOwner)).items as [Location];
  });
  afterAll(() => t.close());

  describe('GET /business/locations', () => {
    it('lists the business’s own locations by precedence, with page and total, to staff as well', async () => {
      const body = await list(staff);
      expect(body).toMatchObject({ page: 1, page_size: 10, total: 2 });
      expect(body.items.map((l) => l.precedence)).toEqual([0, 1]);
      expect(body.items[0]).toMatchObject({
        name: 'Harbourside Dental Docklands',
        phone_number: '+61491570156',
      });
      expect(body.items[1]).toMatchObject({ name: null, address: null });
      expect(Object.keys(body.items[0]!).sort()).toEqual(LOCATION_KEYS);
      expect((await list(northOwner)).items.map((l) => l.name)).toEqual(['Northside Plumbing Brunswick']);
    });

    it('pages with page and page_size', async () => {
      const second = await list(owner, '?page=2&page_size=1');
      expect(second).toMatchObject({ page: 2, page_size: 1, total: 2 });
      expect(second.items.map((l) => l.id)).toEqual([unnamed.id]);
      expect((await list(owner, '?page=3&page_size=1')).items).toEqual([]);
    });

    it.each([
      ['page_size above 100', '?page_size=101', /page_size/],
      ['page 0', '?page=0', /page/],
      ['page not a number', '?page=first', /page/],
      ['an unknown parameter', '?sort=name', /sort/],
    ])('refuses %s with 400 naming it', async (_, query, field) => {
      const res = await t.request({ method: 'GET', url: `${url()}${query}`, token: owner });
      expect(res.statusCode).toBe(400);
      expect(namedIn(res.json())).toMatch(field);
    });

    it('needs a login', async () => {
      expect((await t.request({ method: 'GET', url: url() })).statusCode).toBe(401);
    });
  });

  describe('GET /business/locations/{id}', () => {
    it('answers one location of the business to staff', async () => {
      const res = await t.request({ method: 'GET', url: url(docklands.id), token: staff });
      expect(res.statusCode).toBe(200);
      expect(res.json().body).toEqual(docklands);
    });

    it.each([
      ['another business’s location', () => brunswick.id],
      ['an unknown uuid', () => '0190a4f2-0000-7000-8000-000000000000'],
      ['a non-uuid id', () => 'not-a-uuid'],
      ['an SQL-looking id', () => "1' or '1'='1"],
    ])('answers 404 for %s', async (_, id) => {
      const res = await t.request({ method: 'GET', url: url(encodeURIComponent(id())), token: owner });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'Location not found.', code: 'not_found' });
    });
  });

  describe('POST /business/locations', () => {
    it('creates a location after the others, normalising phone and time zone, and audits it', async () => {
      const res = await t.request({
        method: 'POST',
        url: url(),
        token: owner,
        payload: {
          name: '  Harbourside Dental Southbank ',
          address: '1 City Road, Southbank VIC 3006',
          timezone: 'australia/sydney',
          phone_number: '0491 570 159',
          email_address: 'southbank@harbourside.test',
        },
      });
      expect(res.statusCode).toBe(200);
      const created = res.json().body as Location;
      expect(created).toMatchObject({
        business_id: docklands.business_id,
        name: 'Harbourside Dental Southbank',
        precedence: 2,
        timezone: 'Australia/Sydney',
        phone_number: '+61491570159',
        email_address: 'southbank@harbourside.test',
        assigned_count_open: 0,
      });
      expect(Object.keys(created).sort()).toEqual(LOCATION_KEYS);
      expect(await read(owner, created.id)).toEqual(created);
      const audit = await t.database.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'location.create'), eq(auditLog.target, created.id)));
      expect(audit).toHaveLength(1);
      expect(audit[0]!.business_id).toBe(docklands.business_id);
    });

    it('accepts an international number and an explicit precedence', async () => {
      const res = await t.request({
        method: 'POST',
        url: url(),
        token: owner,
        payload: { name: 'London', phone_number: '+44 20 7946 0958', precedence: 0 },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().body).toMatchObject({ phone_number: '+442079460958', precedence: 0, address: null });
    });

    it.each([
      ['a missing name', {}, /name/],
      ['an empty name', { name: '   ' }, /name/],
      ['a name over 200 characters', { name: 'x'.repeat(201) }, /name/],
      ['a name of the wrong type', { name: 42 }, /name/],
      ['an unknown field', { name: 'A', ai_auto_reply: 'on' }, /ai_auto_reply/],
      ['a business_id', { name: 'A', business_id: '0190a4f2-0000-7000-8000-000000000000' }, /business_id/],
      ['an invalid phone number', { name: 'A', phone_number: '12345' }, /phone_number/],
      ['an invalid email', { name: 'A', email_address: 'front@desk' }, /email_address/],
      ['an unknown time zone', { name: 'A', timezone: 'Mars/Olympus_Mons' }, /timezone/],
      ['a fixed offset for a time zone', { name: 'A', timezone: '+10:00' }, /timezone/],
      ['a negative precedence', { name: 'A', precedence: -1 }, /precedence/],
      ['a precedence as text', { name: 'A', precedence: 'first' }, /precedence/],
    ])('refuses %s with 400 naming the field and creates nothing', async (_, payload, field) => {
      const before = (await list(owner)).total;
      const res = await t.request({ method: 'POST', url: url(), token: owner, payload });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('validation_failed');
      expect(namedIn(res.json())).toMatch(field);
      expect((await list(owner)).total).toBe(before);
    });
  });

  describe('PATCH /business/locations/{id}', () => {
    it('changes only the fields sent, and clears name and address with null', async () => {
      const created = (
        await t.request({
          method: 'POST',
          url: url(),
          token: owner,
          payload: { name: 'Temp', address: '2 Temp St', email_address: 'temp@harbourside.test' },
        })
      ).json().body as Location;
      const res = await t.request({
        method: 'PATCH',
        url: url(created.id),
        token: owner,
        payload: { name: null, address: null, phone_number: '+61 491 570 110' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().body).toMatchObject({
        id: created.id,
        name: null,
        address: null,
        phone_number: '+61491570110',
        email_address: 'temp@harbourside.test',
      });
      expect(await read(owner, created.id)).toMatchObject({ name: null, phone_number: '+61491570110' });
    });

    it.each([
      ['an invalid phone number', { phone_number: 'call me' }, /phone_number/],
      ['an unknown field', { counters: 3 }, /counters/],
      ['a counter', { assigned_count_open: 3 }, /assigned_count_open/],
      ['an empty name', { name: '' }, /name/],
      ['an invalid time zone', { timezone: 'Nowhere/Special' }, /timezone/],
      ['hours without every day', { opening_hours: { mon: [{ open: '09:00', close: '17:00' }] } }, /tue/],
      [
        'hours that end before they start',
        { opening_hours: { ...WEEK_CLOSED, mon: [{ open: '17:00', close: '09:00' }] } },
        /17:00–09:00 must end after it starts/,
      ],
      [
        'overlapping hours',
        {
          opening_hours: {
            ...WEEK_CLOSED,
            tue: [
              { open: '09:00', close: '13:00' },
              { open: '12:00', close: '17:00' },
            ],
          },
        },
        /09:00–13:00 overlaps 12:00/,
      ],
      [
        'a time that is not a time',
        { opening_hours: { ...WEEK_CLOSED, wed: [{ open: '9am', close: '17:00' }] } },
        /HH:MM/,
      ],
      ['an unknown reply time', { reply_time: 'soon' }, /reply_time/],
      ['a holiday that is not a date', { holidays: [{ date: 'Christmas' }] }, /Give holidays as dates/],
      ['a holiday on a day that does not exist', { holidays: [{ date: '2026-02-30' }] }, /not a real date/],
      [
        'the same holiday twice',
        { holidays: [{ date: '2026-12-25' }, { date: '2026-12-25', name: 'Christmas' }] },
        /2026-12-25 is listed twice/,
      ],
    ])('refuses %s with 400 and leaves the location as it was', async (_, payload, field) => {
      const res = await t.request({ method: 'PATCH', url: url(docklands.id), token: owner, payload });
      expect(res.statusCode).toBe(400);
      expect(namedIn(res.json())).toMatch(field);
      expect(await read(owner, docklands.id)).toEqual(docklands);
    });
  });

  describe('opening hours', () => {
    it('are always open until set; the owner sets them and how soon the location replies, and clears them', async () => {
      expect(docklands).toMatchObject({ opening_hours: null, reply_time: null });
      const place = (
        await t.request({ method: 'POST', url: url(), token: owner, payload: { name: 'Hours test' } })
      ).json().body as Location;
      const hours = {
        ...WEEK_CLOSED,
        mon: [
          { open: '08:30', close: '12:00' },
          { open: '13:00', close: '24:00' },
        ],
      };
      const res = await t.request({
        method: 'PATCH',
        url: url(place.id),
        token: owner,
        payload: { opening_hours: hours, reply_time: 'hour' },
      });
      expect(res.statusCode).toBe(200);
      expect(await read(staff, place.id)).toMatchObject({ opening_hours: hours, reply_time: 'hour' });
      await t.request({
        method: 'PATCH',
        url: url(place.id),
        token: owner,
        payload: { opening_hours: null, reply_time: null },
      });
      expect(await read(owner, place.id)).toMatchObject({ opening_hours: null, reply_time: null });
    });

    it('keep holidays in date order; on one the chat says the location is closed and when it opens', async () => {
      const place = (
        await t.request({
          method: 'POST',
          url: url(),
          token: owner,
          payload: { name: 'Holiday test', timezone: 'Australia/Melbourne' },
        })
      ).json().body as Location;
      expect(place.holidays).toEqual([]);
      const availability = async () =>
        (await t.request({ method: 'GET', url: `/widget-api/locations/${place.id}/config` })).json()
          .availability as string;
      expect(await availability()).toBe('We reply as soon as we can.');
      const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Australia/Melbourne' }).format(new Date());
      const res = await t.request({
        method: 'PATCH',
        url: url(place.id),
        token: owner,
        payload: {
          holidays: [
            { date: '2099-01-26', name: ' Australia Day ' },
            { date: today, name: '' },
          ],
        },
      });
      expect(res.statusCode).toBe(200);
      expect((await read(staff, place.id)).holidays).toEqual([
        { date: today, name: null },
        { date: '2099-01-26', name: 'Australia Day' },
      ]);
      expect(await availability()).toMatch(/^We're closed now and open again tomorrow\./);
    });

    it('offer the public holidays of a country or a region, of any year, to add in one go', async () => {
      const places = await t.request({ method: 'GET', url: '/api/v1/public-holidays/places', token: staff });
      expect(places.statusCode).toBe(200);
      const australia = places.json().body.countries.find((c: { code: string }) => c.code === 'AU');
      expect(australia.name).toBe('Australia');
      expect(australia.regions).toContainEqual({ code: 'VIC', name: 'Victoria' });
      const of = async (query: string) =>
        t.request({ method: 'GET', url: `/api/v1/public-holidays?${query}`, token: owner });
      const victoria = (await of('country=AU&region=VIC&year=2027')).json().body.items as {
        date: string;
        name: string;
      }[];
      expect(victoria).toContainEqual({ date: '2027-12-25', name: 'Christmas Day' });
      expect(victoria).toContainEqual({ date: '2027-11-02', name: 'Melbourne Cup' });
      expect(victoria.map((h) => h.date)).toEqual([...victoria.map((h) => h.date)].sort());
      // Melbourne Cup day is Victoria's alone.
      const nsw = (await of('country=au&region=nsw&year=2027')).json().body.items as { date: string }[];
      expect(nsw.map((h) => h.date)).not.toContain('2027-11-02');
      expect(nsw.map((h) => h.date)).toContain('2027-12-25');
      const cases: [string, number, RegExp][] = [
        ['country=XX&year=2027', 404, /No holidays are known for the country XX/],
        ['country=AU&region=ZZ&year=2027', 404, /Australia has no region ZZ/],
        ['country=Australia&year=2027', 400, /two-letter code/],
        ['country=AU&year=next', 400, /year is a number/],
        ['country=AU&year=1066', 400, /from 2000 to 2100/],
        ['year=2027', 400, /country/],
      ];
      for (const [query, status, message] of cases) {
        const res = await of(query);
        expect(res.statusCode, query).toBe(status);
        expect(namedIn(res.json()), query).toMatch(message);
      }
      expect((await t.request({ method: 'GET', url: '/api/v1/public-holidays/places' })).statusCode).toBe(
        401,
      );
    });

    it('cannot be changed by staff', async () => {
      const res = await t.request({
        method: 'PATCH',
        url: url(docklands.id),
        token: staff,
        payload: { opening_hours: WEEK_CLOSED },
      });
      expect(res.statusCode).toBe(403);
      expect(await read(owner, docklands.id)).toEqual(docklands);
    });
  });

  describe('who may change locations', () => {
    const mutations = () => [
      { method: 'POST' as const, url: url(), payload: { name: 'Staff made this' } },
      { method: 'PATCH' as const, url: url(docklands.id), payload: { name: 'Renamed by staff' } },
      { method: 'DELETE' as const, url: url(unnamed.id) },
    ];

    it('refuses staff with 403 and a message, and nothing changes', async () => {
      const before = await list(owner);
      for (const m of mutations()) {
        const res = await t.request({ ...m, token: staff });
        expect(res.statusCode, `${m.method} ${m.url}`).toBe(403);
        expect(res.json()).toEqual({
          message: 'Only the business owner can manage locations.',
          code: 'owner_only',
        });
      }
      expect(await list(owner)).toEqual(before);
    });

    it('answers 404 to another business’s owner for every call on an id, and nothing changes', async () => {
      const calls = [
        { method: 'GET' as const, url: url(docklands.id) },
        { method: 'PATCH' as const, url: url(docklands.id), payload: { name: 'Taken over' } },
        { method: 'DELETE' as const, url: url(unnamed.id) },
      ];
      for (const c of calls) {
        const res = await t.request({ ...c, token: northOwner });
        expect(res.statusCode, `${c.method} ${c.url}`).toBe(404);
        expect(res.json().message).toBe('Location not found.');
      }
      expect(await read(owner, docklands.id)).toEqual(docklands);
      expect(await read(owner, unnamed.id)).toEqual(unnamed);
    });

    it('answers 404 the other way round too', async () => {
      for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
        const res = await t.request({
          method,
          url: url(brunswick.id),
          token: owner,
          ...(method === 'PATCH' ? { payload: { name: 'Mine now' } } : {}),
        });
        expect(res.statusCode, method).toBe(404);
      }
      expect(await read(northOwner, brunswick.id)).toEqual(brunswick);
    });
  });

  describe('DELETE /business/locations/{id}', () => {
    it('refuses to delete the business’s last location with 409', async () => {
      const res = await t.request({ method: 'DELETE', url: url(brunswick.id), token: northOwner });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ message: 'A business needs at least one location.', code: 'conflict' });
      expect(await read(northOwner, brunswick.id)).toEqual(brunswick);
    });

    it('keeps one location when the last two are deleted at the same time', async () => {
      const second = (
        await t.request({
          method: 'POST',
          url: url(),
          token: northOwner,
          payload: { name: 'Northside Coburg' },
        })
      ).json().body as Location;
      const results = await Promise.all(
        [brunswick.id, second.id].map((id) =>
          t.request({ method: 'DELETE', url: url(id), token: northOwner }),
        ),
      );
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      const left = await list(northOwner);
      expect(left.total).toBe(1);
      brunswick = left.items[0]!;
    });

    it('refuses to delete a location that still has enquiries, so no conversation is lost', async () => {
      const [customer] = await t.database.db
        .insert(customers)
        .values({ business_id: unnamed.business_id, name: 'Casey', phone: '+61491570199' })
        .returning();
      await t.database.db.insert(enquiries).values({
        business_id: unnamed.business_id,
        location_id: unnamed.id,
        customer_id: customer!.id,
        channel: 'sms',
      });
      const res = await t.request({ method: 'DELETE', url: url(unnamed.id), token: owner });
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toMatch(/still has enquiries/);
      expect(await read(owner, unnamed.id)).toEqual(unnamed);
      const kept = await t.database.db.select().from(enquiries).where(eq(enquiries.location_id, unnamed.id));
      expect(kept).toHaveLength(1);
    });

    it('deletes an empty location, which then answers 404, and audits it', async () => {
      const created = (
        await t.request({ method: 'POST', url: url(), token: owner, payload: { name: 'Pop-up' } })
      ).json().body as Location;
      const res = await t.request({ method: 'DELETE', url: url(created.id), token: owner });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ body: { id: created.id, deleted: true } });
      expect((await t.request({ method: 'GET', url: url(created.id), token: owner })).statusCode).toBe(404);
      const again = await t.request({ method: 'DELETE', url: url(created.id), token: owner });
      expect(again.statusCode).toBe(404);
      const audit = await t.database.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'location.delete'), eq(auditLog.target, created.id)));
      expect(audit).toHaveLength(1);
    });
  });
});
