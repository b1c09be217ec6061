import { auditLog, businesses } from '@switchboard/db';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DEMO_LOGINS, namedIn, type TestApp } from '../../test/helpers.ts';

const BUSINESS_KEYS = [
  'id',
  'name',
  'owner_user_id',
  'timezone',
  'website',
  'site_origins',
  'industry',
  'image',
  'plan',
  'trial_end_date',
  'subscription_past_due',
  'next_invoice_attempt',
  'message_limit',
  'messages_sent_today',
  'verified',
].sort();

type Business = { id: string; name: string; [key: string]: unknown };

async function myBusiness(t: TestApp, token: string): Promise<Business & { locations: { id: string }[] }> {
  const me = (await t.request({ method: 'GET', url: '/api/v1/user/me', token })).json().body;
  return me.businesses.find((b: { selected: boolean }) => b.selected);
}

describe('PUT /business/mybusiness', () => {
  let t: TestApp;
  let owner: string;
  let staff: string;
  let northOwner: string;
  const put = (token: string, payload: unknown) =>
    t.request({ method: 'PUT', url: '/api/v1/business/mybusiness', token, payload: payload as object });

  beforeAll(async () => {
    t = await createTestApp();
    [owner, staff, northOwner] = await Promise.all([
      t.login(DEMO_LOGINS.owner),
      t.login(DEMO_LOGINS.staff1),
      t.login(DEMO_LOGINS.northsideOwner),
    ]);
  });
  afterAll(() => t.close());

  it('updates the owner’s business: time zone canonical, markdown link unwrapped, blank industry cleared', async () => {
    const res = await put(owner, {
      name: 'Harbourside Dental & Implants',
      timezone: 'australia/brisbane',
      website: '[Book online](https://harbourside.example/book)',
      industry: '  ',
    });
    expect(res.statusCode).toBe(200);
    const body = res.json().body;
    expect(Object.keys(body).sort()).toEqual(BUSINESS_KEYS);
    expect(body).toMatchObject({
      name: 'Harbourside Dental & Implants',
      timezone: 'Australia/Brisbane',
      website: 'https://harbourside.example/book',
      industry: null,
      plan: 'trial',
      message_limit: 500,
    });
    expect(await myBusiness(t, staff)).toMatchObject({
      name: 'Harbourside Dental & Implants',
      website: 'https://harbourside.example/book',
    });
    const audit = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'business.update'), eq(auditLog.target, body.id)));
    expect(audit).toHaveLength(1);
    expect(audit[0]!.detail).toMatchObject({ name: 'Harbourside Dental & Implants' });
  });

  it('clears the website with null', async () => {
    const res = await put(owner, { website: null });
    expect(res.statusCode).toBe(200);
    expect(res.json().body.website).toBeNull();
    await put(owner, { website: 'https://harbourside.test' });
  });

  it.each([
    ['an empty name', { name: '' }, /name/],
    ['a name of the wrong type', { name: 7 }, /name/],
    ['a website that is not a URL', { website: 'harbourside dental' }, /website/],
    ['a website without a host', { website: 'mailto:hello@harbourside.test' }, /website/],
    ['two markdown links', { website: '[a](https://a.test) [b](https://b.test)' }, /website/],
    ['an unknown time zone', { timezone: 'Atlantis/Central' }, /timezone/],
    ['a null time zone', { timezone: null }, /timezone/],
    ['the plan', { plan: 'annual' }, /plan/],
    ['the owner', { owner_user_id: '0190a4f2-0000-7000-8000-000000000000' }, /owner_user_id/],
    ['the message limit', { message_limit: 100000 }, /message_limit/],
  ])('refuses %s with 400 naming the field, and nothing changes', async (_, payload, field) => {
    const before = await myBusiness(t, owner);
    const res = await put(owner, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('validation_failed');
    expect(namedIn(res.json())).toMatch(field);
    expect(await myBusiness(t, owner)).toEqual(before);
  });

  it('refuses staff with 403 and a message, and nothing changes', async () => {
    const before = await myBusiness(t, owner);
    const res = await put(staff, { name: 'Staff Dental' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      message: 'Only the business owner can change the business details.',
      code: 'owner_only',
    });
    expect(await myBusiness(t, owner)).toEqual(before);
  });

  it('changes only the caller’s own business', async () => {
    const harbourside = await myBusiness(t, owner);
    const res = await put(northOwner, { name: 'Northside Plumbing & Gas' });
    expect(res.statusCode).toBe(200);
    expect(res.json().body.name).toBe('Northside Plumbing & Gas');
    expect(res.json().body.id).not.toBe(harbourside.id);
    expect(await myBusiness(t, owner)).toEqual(harbourside);
  });

  it('reports no messages sent today once the counted day is over', async () => {
    const { id } = await myBusiness(t, owner);
    const db = t.database.db;
    await db
      .update(businesses)
      .set({ messages_sent_today: 42, messages_count_day: null })
      .where(eq(businesses.id, id));
    expect((await put(owner, {})).json().body.messages_sent_today).toBe(42);
    await db
      .update(businesses)
      .set({ messages_sent_today: 42, messages_count_day: '2000-01-01' })
      .where(eq(businesses.id, id));
    expect((await put(owner, {})).json().body.messages_sent_today).toBe(0);
  });
});

type Kind = {
  kind: 'phone' | 'email';
  field: 'phone' | 'email';
  input: string;
  stored: string;
  invalid: string;
  seeded: string;
  northSeeded: string;
  noun: string;
  manage: string;
};

const KINDS: Kind[] = [
  {
    kind: 'phone',
    field: 'phone',
    input: '(04) 9157 0111',
    stored: '+61491570111',
    invalid: '555-0100',
    seeded: '+61491570156',
    northSeeded: '+61491570158',
    noun: 'Phone number',
    manage: 'manage the business phone numbers',
  },
  {
    kind: 'email',
    field: 'email',
    input: ' bookings@harbourside.test ',
    stored: 'bookings@harbourside.test',
    invalid: 'bookings@harbourside',
    seeded: 'hello@harbourside.test',
    northSeeded: 'office@northside.test',
    noun: 'Email address',
    manage: 'manage the business email addresses',
  },
];

describe.each(KINDS)('/business/mybusiness/$kind', (k) => {
  let t: TestApp;
  let owner: string;
  let staff: string;
  let northOwner: string;
  let docklandsId: string;
  let northLocationId: string;
  type Item = { id: string; label: string | null; location_id: string | null; created_at: string } & Record<
    string,
    unknown
  >;
  const base = `/api/v1/business/mybusiness/${k.kind}`;
  const list = async (token: string, query = '') => {
    const res = await t.request({ method: 'GET', url: `${base}${query}`, token });
    expect(res.statusCode).toBe(200);
    return res.json().body as { items: Item[]; page: number; page_size: number; total: number };
  };

  beforeAll(async () => {
    t = await createTestApp();
    [owner, staff, northOwner] = await Promise.all([
      t.login(DEMO_LOGINS.owner),
      t.login(DEMO_LOGINS.staff1),
      t.login(DEMO_LOGINS.northsideOwner),
    ]);
    docklandsId = (await myBusiness(t, owner)).locations[0]!.id;
    northLocationId = (await myBusiness(t, northOwner)).locations[0]!.id;
  });
  afterAll(() => t.close());

  it('lists the business’s own entries to staff, with page and total', async () => {
    const body = await list(staff);
    expect(body).toMatchObject({ page: 1, page_size: 10, total: 1 });
    expect(body.items).toEqual([
      {
        id: expect.any(String),
        label: expect.any(String),
        [k.field]: k.seeded,
        location_id: docklandsId,
        created_at: expect.any(String),
      },
    ]);
    expect((await list(northOwner)).items.map((i) => i[k.field])).toEqual([k.northSeeded]);
  });

  it('adds an entry, normalised, tied to a location, listed newest first, and audits it', async () => {
    const res = await t.request({
      method: 'POST',
      url: base,
      token: owner,
      payload: { label: 'Bookings', [k.field]: k.input, location_id: docklandsId },
    });
    expect(res.statusCode).toBe(200);
    const item = res.json().body as Item;
    expect(item).toEqual({
      id: expect.any(String),
      label: 'Bookings',
      [k.field]: k.stored,
      location_id: docklandsId,
      created_at: expect.any(String),
    });
    const second = (
      await t.request({ method: 'POST', url: base, token: owner, payload: { [k.field]: k.stored } })
    ).json().body as Item;
    expect(second).toMatchObject({ label: null, location_id: null });
    const body = await list(owner);
    expect(body.total).toBe(3);
    expect(body.items.slice(0, 2).map((i) => i.id)).toEqual([second.id, item.id]);
    expect((await list(owner, '?page=2&page_size=2')).items).toHaveLength(1);
    const audit = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, `business.${k.kind}.create`), eq(auditLog.target, item.id)));
    expect(audit).toHaveLength(1);
  });

  it.each([
    ['a missing value', {}, new RegExp(k.field)],
    ['an invalid value', { [k.field]: k.invalid }, new RegExp(k.field)],
    ['a value of the wrong type', { [k.field]: 491570111 }, new RegExp(k.field)],
    ['a location id that is not a uuid', { [k.field]: k.stored, location_id: 'docklands' }, /location_id/],
    ['an unknown field', { [k.field]: k.stored, primary: true }, /primary/],
    ['a label over 100 characters', { [k.field]: k.stored, label: 'x'.repeat(101) }, /label/],
  ])('refuses %s with 400 naming the field, and adds nothing', async (_, payload, field) => {
    const before = await list(owner, '?page_size=100');
    const res = await t.request({ method: 'POST', url: base, token: owner, payload });
    expect(res.statusCode).toBe(400);
    expect(namedIn(res.json())).toMatch(field);
    expect(await list(owner, '?page_size=100')).toEqual(before);
  });

  it('refuses another business’s location with 404, and adds nothing', async () => {
    const before = await list(owner);
    const res = await t.request({
      method: 'POST',
      url: base,
      token: owner,
      payload: { [k.field]: k.stored, location_id: northLocationId },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('Location not found.');
    expect(await list(owner)).toEqual(before);
  });

  it('updates only the fields sent, and unties the location with null', async () => {
    const [seeded] = (await list(owner, '?page_size=100')).items.filter((i) => i[k.field] === k.seeded);
    const res = await t.request({
      method: 'PUT',
      url: `${base}/${seeded!.id}`,
      token: owner,
      payload: { label: 'Main', location_id: null },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().body).toEqual({ ...seeded, label: 'Main', location_id: null });
    const bad = await t.request({
      method: 'PUT',
      url: `${base}/${seeded!.id}`,
      token: owner,
      payload: { [k.field]: k.invalid },
    });
    expect(bad.statusCode).toBe(400);
    expect(namedIn(bad.json())).toMatch(new RegExp(k.field));
    const cross = await t.request({
      method: 'PUT',
      url: `${base}/${seeded!.id}`,
      token: owner,
      payload: { location_id: northLocationId },
    });
    expect(cross.statusCode).toBe(404);
    const after = (await list(owner, '?page_size=100')).items.find((i) => i.id === seeded!.id);
    expect(after).toEqual({ ...seeded, label: 'Main', location_id: null });
  });

  it('refuses staff with 403 for every change, and nothing changes', async () => {
    const before = await list(owner, '?page_size=100');
    const id = before.items[0]!.id;
    const calls = [
      { method: 'POST' as const, url: base, payload: { [k.field]: k.stored } },
      { method: 'PUT' as const, url: `${base}/${id}`, payload: { label: 'Staff' } },
      { method: 'DELETE' as const, url: `${base}/${id}` },
    ];
    for (const c of calls) {
      const res = await t.request({ ...c, token: staff });
      expect(res.statusCode, c.method).toBe(403);
      expect(res.json().message).toBe(`Only the business owner can ${k.manage}.`);
    }
    expect(await list(owner, '?page_size=100')).toEqual(before);
  });

  it('answers 404 for another business’s entry, both ways, and nothing changes', async () => {
    const mine = await list(owner, '?page_size=100');
    const theirs = await list(northOwner, '?page_size=100');
    const attempts = [
      { token: northOwner, id: mine.items[0]!.id },
      { token: owner, id: theirs.items[0]!.id },
      { token: owner, id: 'not-a-uuid' },
    ];
    for (const { token, id } of attempts) {
      for (const method of ['PUT', 'DELETE'] as const) {
        const res = await t.request({
          method,
          url: `${base}/${id}`,
          token,
          ...(method === 'PUT' ? { payload: { label: 'Taken' } } : {}),
        });
        expect(res.statusCode, `${method} ${id}`).toBe(404);
        expect(res.json().message).toBe(`${k.noun} not found.`);
      }
    }
    expect(await list(owner, '?page_size=100')).toEqual(mine);
    expect(await list(northOwner, '?page_size=100')).toEqual(theirs);
  });

  it('deletes an entry', async () => {
    const before = await list(owner, '?page_size=100');
    const id = before.items[0]!.id;
    const res = await t.request({ method: 'DELETE', url: `${base}/${id}`, token: owner });
    expect(res.statusCode).toBe(200);
    expect(res.json().body).toEqual({ id, deleted: true });
    const after = await list(owner, '?page_size=100');
    expect(after.total).toBe(before.total - 1);
    expect(after.items.map((i) => i.id)).not.toContain(id);
  });
});

describe('PUT /business/validators/email', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  const check = (payload: unknown) =>
    t.request({ method: 'PUT', url: '/api/v1/business/validators/email', payload: payload as object });

  it.each(['a@b.co', 'first.last+tag@sub.example.com.au', 'user@[192.168.0.1]', '"quoted name"@example.com'])(
    'accepts %s',
    async (email) => {
      const res = await check({ email });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ body: { email, valid: true } });
    },
  );

  it.each([
    'plainaddress',
    'a@b',
    'a@b.c',
    'a@b.c0',
    '@example.com',
    'two words@example.com',
    'a@[999.1.1.1]',
  ])('answers 422 for %j naming it', async (email) => {
    const res = await check({ email });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ message: `${email} is not a valid email`, code: 'unprocessable' });
  });

  it.each([
    ['a missing email', {}, /email/],
    ['an empty email', { email: '  ' }, /Email: Please enter an email/],
    ['an email of the wrong type', { email: 42 }, /email/],
    ['an unknown field', { email: 'a@b.co', strict: true }, /strict/],
  ])('refuses %s with 400', async (_, payload, field) => {
    const res = await check(payload);
    expect(res.statusCode).toBe(400);
    expect(namedIn(res.json())).toMatch(field);
  });
});

describe('GET /business/mybusiness/features and DELETE /business/clear/cache', () => {
  let t: TestApp;
  let owner: string;
  let staff: string;
  let admin: string;
  let northOwner: string;
  let businessId: string;
  const features = async (token: string) => {
    const res = await t.request({ method: 'GET', url: '/api/v1/business/mybusiness/features', token });
    expect(res.statusCode).toBe(200);
    return res.json().body;
  };
  const setAccount = (values: Partial<typeof businesses.$inferInsert>) =>
    t.database.db.update(businesses).set(values).where(eq(businesses.id, businessId));

  beforeAll(async () => {
    t = await createTestApp();
    [owner, staff, admin, northOwner] = await Promise.all([
      t.login(DEMO_LOGINS.owner),
      t.login(DEMO_LOGINS.staff1),
      t.login(DEMO_LOGINS.admin),
      t.login(DEMO_LOGINS.northsideOwner),
    ]);
    businessId = (await myBusiness(t, owner)).id;
  });
  afterAll(() => t.close());

  it('answers the features from config and the business, to staff as well', async () => {
    expect(await features(staff)).toEqual({
      sandbox: true,
      inbox: true,
      locations: true,
      subscription_status: 'trial',
      flags: { invoices: true, reviews: true, assistant: true, calls: true },
    });
    expect((await features(northOwner)).subscription_status).toBe('monthly');
  });

  it('keeps answering from the cache until the business changes through the API', async () => {
    await features(owner);
    await setAccount({ plan: 'monthly', subscription_past_due: true });
    expect((await features(owner)).subscription_status).toBe('trial');
    const res = await t.request({
      method: 'PUT',
      url: '/api/v1/business/mybusiness',
      token: owner,
      payload: { industry: 'Dental' },
    });
    expect(res.statusCode).toBe(200);
    expect((await features(staff)).subscription_status).toBe('monthly_subscription_expired');
  });

  it('lets only a super admin clear the cache', async () => {
    await features(owner);
    await setAccount({ next_invoice_attempt: new Date() });
    for (const token of [staff, owner]) {
      const res = await t.request({ method: 'DELETE', url: '/api/v1/business/clear/cache', token });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({
        message: 'Only a Switchboard administrator can do this.',
        code: 'super_admin_only',
      });
    }
    expect((await features(owner)).subscription_status).toBe('monthly_subscription_expired');
    const res = await t.request({ method: 'DELETE', url: '/api/v1/business/clear/cache', token: admin });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ body: { cleared: true } });
    expect((await features(owner)).subscription_status).toBe('payment_failed');
    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'cache.clear'));
    expect(audit).toHaveLength(1);
  });
});
