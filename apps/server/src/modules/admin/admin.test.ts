import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiClient,
  createTestApp,
  DEMO_LOGINS,
  DEMO_PASSWORD,
  type Json,
  type TestApp,
} from '../../test/helpers.ts';

describe('super admin console, feature flags and the audit log', () => {
  let t: TestApp;
  let admin: string;
  let owner: string;
  let staff: string;
  let harbourside: Json;
  let northsideId: string;
  const api = (...args: Parameters<ReturnType<typeof apiClient>>) => apiClient(t)(...args);
  beforeAll(async () => {
    t = await createTestApp({ MESSAGE_LIMIT_ANNUAL: '4321' });
    admin = await t.login(DEMO_LOGINS.admin);
    owner = await t.login(DEMO_LOGINS.owner);
    staff = await t.login(DEMO_LOGINS.staff1);
    const list = await api('GET', '/admin/businesses', admin);
    harbourside = list.body.body.items.find((b: Json) => b.name === 'Harbourside Dental');
    northsideId = list.body.body.items.find((b: Json) => b.name === 'Northside Plumbing').id;
    // Marking regulated is only for businesses on the installation's list: this one is.
    await t.close();
    t = await createTestApp({ MESSAGE_LIMIT_ANNUAL: '4321', REGULATED_BUSINESS_IDS: northsideId });
    admin = await t.login(DEMO_LOGINS.admin);
    owner = await t.login(DEMO_LOGINS.owner);
    staff = await t.login(DEMO_LOGINS.staff1);
  });
  afterAll(() => t.close());

  it('lists every business with its owner, status and usage; searches; only for super admins', async () => {
    const all = await api('GET', '/admin/businesses', admin);
    expect(all.status).toBe(200);
    expect(all.body.body.total).toBe(2);
    expect(harbourside).toMatchObject({
      status: 'trial',
      verified: true,
      owner: { email: DEMO_LOGINS.owner },
      messages_today: 0,
      feature_flags: { invoices: true, reviews: true, assistant: true, calls: true },
    });
    const byEmail = await api('GET', '/admin/businesses?q=northside.test', admin);
    expect(byEmail.body.body.items.map((b: Json) => b.name)).toEqual(['Northside Plumbing']);
    const byStatus = await api('GET', '/admin/businesses?status=monthly', admin);
    expect(byStatus.body.body.items.map((b: Json) => b.name)).toEqual(['Northside Plumbing']);
    expect((await api('GET', '/admin/businesses', owner)).status).toBe(403);
    expect((await api('GET', `/admin/businesses/${harbourside.id}`, staff)).status).toBe(403);
    expect((await api('GET', '/admin/businesses/00000000-0000-7000-8000-000000000000', admin)).status).toBe(
      404,
    );
  });

  it('extends a trial, changes a plan (its limit follows), and writes each change to the business audit log', async () => {
    const until = new Date(Date.now() + 30 * 86_400_000).toISOString();
    const extended = await api('PATCH', `/admin/businesses/${harbourside.id}`, admin, {
      trial_end_date: until,
    });
    expect(extended.status).toBe(200);
    expect(extended.body.body.trial_end_date).toBe(until);
    const annual = await api('PATCH', `/admin/businesses/${harbourside.id}`, admin, { plan: 'annual' });
    expect(annual.body.body).toMatchObject({ plan: 'annual', status: 'annual', message_limit: 4321 });
    expect((await api('PATCH', `/admin/businesses/${harbourside.id}`, admin, {})).status).toBe(400);
    expect(
      (await api('PATCH', `/admin/businesses/${harbourside.id}`, admin, { plan: 'weekly' })).status,
    ).toBe(400);
    expect((await api('PATCH', `/admin/businesses/${harbourside.id}`, owner, { plan: 'trial' })).status).toBe(
      403,
    );

    const log = await api('GET', '/business/audit-log', owner);
    expect(log.status).toBe(200);
    const actions = log.body.body.items.map((e: Json) => [e.action, e.user?.email]);
    expect(actions).toContainEqual(['admin.business.update', DEMO_LOGINS.admin]);
    expect(log.body.body.items[0].detail).toEqual({ plan: 'annual' });
    expect((await api('GET', '/business/audit-log', staff)).status).toBe(403);
    // An owner reads their own business's log only.
    expect((await api('GET', `/business/audit-log?business_id=${northsideId}`, owner)).status).toBe(400);
    const adminView = await api('GET', `/admin/audit-log?business_id=${northsideId}`, admin);
    expect(adminView.body.body.items.every((e: Json) => e.business_id === northsideId)).toBe(true);
  });

  it('marks regulated only businesses on the installation list', async () => {
    const refused = await api('PATCH', `/admin/businesses/${harbourside.id}`, admin, { regulated: true });
    expect(refused.status).toBe(422);
    expect(refused.body.message).toContain('not on this installation');
    const ok = await api('PATCH', `/admin/businesses/${northsideId}`, admin, { regulated: true });
    expect(ok.body.body).toMatchObject({ regulated: true, regulated_allowed: true });
  });

  it('turns a feature off for one business: its routes refuse, the flags say so, the other business is untouched', async () => {
    expect((await api('GET', '/business/customer-invoices', owner)).status).toBe(200);
    await api('PATCH', `/admin/businesses/${harbourside.id}`, admin, { feature_flags: { invoices: false } });
    const refused = await api('GET', '/business/customer-invoices', owner);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toContain('turned off for your business');
    const features = await api('GET', '/business/mybusiness/features', owner);
    expect(features.body.body.flags).toEqual({
      invoices: false,
      reviews: true,
      assistant: true,
      calls: true,
    });
    const me = await api('GET', '/user/me', staff);
    expect(me.body.body.feature_flags.invoices).toBe(false);
    const north = await t.login(DEMO_LOGINS.northsideOwner);
    expect((await api('GET', '/business/customer-invoices', north)).status).toBe(200);
    expect(
      (await api('PATCH', `/admin/businesses/${harbourside.id}`, admin, { feature_flags: { nope: true } }))
        .status,
    ).toBe(400);
    await api('PATCH', `/admin/businesses/${harbourside.id}`, admin, { feature_flags: { invoices: true } });
    expect((await api('GET', '/business/customer-invoices', owner)).status).toBe(200);
  });

  it('refuses every route of a turned-off feature with the same answer, its analytics reports included, and leaves the rest of analytics alone', async () => {
    const north = await t.login(DEMO_LOGINS.northsideOwner);
    const location = (await api('GET', '/user/me', owner)).body.body.businesses.find((b: Json) => b.selected)
      .locations[0].id as string;
    const range = 'start=2024-01-01T00:00:00.000Z&end=2024-02-01T00:00:00.000Z&timezone=UTC&dayDiff=31';
    // The invoice export is a CSV download: its refusal is JSON like every other.
    const get = async (url: string, token: string) => {
      const res = await t.request({ method: 'GET', url: `/api/v1${url}`, token });
      const json = res.headers['content-type']?.toString().startsWith('application/json');
      return { status: res.statusCode, message: json ? (res.json().message as string) : undefined };
    };
    const routes: Record<'calls' | 'reviews' | 'invoices', string[]> = {
      calls: ['/calls', `/analytics/calls?${range}`, `/business/locations/${location}/tracking-numbers`],
      reviews: ['/business/review-requests', `/analytics/reviews?${range}`],
      invoices: [
        '/business/customer-invoices',
        `/analytics/invoices?${range}`,
        '/business/customer-invoices/export',
      ],
    };
    for (const [flag, urls] of Object.entries(routes)) {
      for (const url of urls) expect((await get(url, owner)).status, url).toBe(200);
      await api('PATCH', `/admin/businesses/${harbourside.id}`, admin, { feature_flags: { [flag]: false } });
      try {
        for (const url of urls) {
          const refused = await get(url, owner);
          expect([refused.status, refused.message], url).toEqual([
            403,
            'This feature is turned off for your business. Contact Switchboard support to turn it on.',
          ]);
        }
        // The reports of what is still on answer, and another business is not touched.
        expect((await get(`/analytics/enquiries?${range}`, owner)).status).toBe(200);
        expect((await get(`/analytics/response-times?${range}`, owner)).status).toBe(200);
        expect((await get(`/analytics/${flag}?${range}`, north)).status).toBe(200);
      } finally {
        await api('PATCH', `/admin/businesses/${harbourside.id}`, admin, { feature_flags: { [flag]: true } });
      }
      for (const url of urls) expect((await get(url, owner)).status, url).toBe(200);
    }
  });

  it('opens a business as an administrator, recorded in its audit log', async () => {
    const opened = await api('POST', `/admin/businesses/${northsideId}/open`, admin);
    expect(opened.status).toBe(200);
    const token = opened.body.body.token as string;
    const me = await api('GET', '/user/me', token);
    const selected = me.body.body.businesses.find((b: Json) => b.selected);
    expect(selected).toMatchObject({ id: northsideId, role: null });
    const log = await api('GET', `/admin/audit-log?business_id=${northsideId}`, admin);
    expect(log.body.body.items[0]).toMatchObject({
      action: 'admin.business.open',
      user: { email: DEMO_LOGINS.admin },
    });
    expect((await api('POST', `/admin/businesses/${northsideId}/open`, owner)).status).toBe(403);
  });

  it('records every way an administrator enters a business, the same way, for its owner to read; others are refused', async () => {
    const northOwner = await t.login(DEMO_LOGINS.northsideOwner);
    const entries = async () =>
      (await api('GET', '/business/audit-log?page_size=100', northOwner)).body.body.items.filter(
        (e: Json) => e.action === 'admin.business.open',
      ) as Json[];
    const before = (await entries()).length;
    const expectEntry = async (how: string) => {
      const [latest, ...rest] = await entries();
      expect(rest.length).toBe(before + expectedCount - 1);
      expect(latest).toMatchObject({
        business_id: northsideId,
        target: northsideId,
        user: { email: DEMO_LOGINS.admin },
        detail: { how },
      });
      expect(Date.now() - new Date(latest!.created_at).getTime()).toBeLessThan(60_000);
    };
    let expectedCount = 0;

    // The console's "open".
    const opened = await api('POST', `/admin/businesses/${northsideId}/open`, admin);
    expect(opened.status).toBe(200);
    expectedCount++;
    await expectEntry('console');

    // Switching to it from another business.
    const switched = await api('PUT', '/user/switch', admin, { business_id: northsideId });
    expect(switched.status).toBe(200);
    expectedCount++;
    await expectEntry('switch');
    // Moving to another of its locations is not a new entry.
    const inside = switched.body.body.token as string;
    const location = (await api('GET', '/user/me', inside)).body.body.businesses.find((b: Json) => b.selected)
      .locations[0].id;
    expect(
      (await api('PUT', '/user/switch', inside, { business_id: northsideId, location_id: location })).status,
    ).toBe(200);
    expect((await entries()).length).toBe(before + expectedCount);

    // Signing in with it chosen (the browser asks for the business it used last).
    const login = await t.request({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: DEMO_LOGINS.admin, password: DEMO_PASSWORD },
      headers: { bid: northsideId },
    });
    expect(login.statusCode).toBe(200);
    expectedCount++;
    await expectEntry('login');

    // The owner reads it in their own audit log; a member switching between their own businesses writes nothing.
    const log = await api('GET', '/business/audit-log', northOwner);
    expect(log.status).toBe(200);
    expect(await api('PUT', '/user/switch', northOwner, { business_id: northsideId })).toMatchObject({
      status: 200,
    });
    expect((await entries()).length).toBe(before + expectedCount);

    // Nobody else may come in: another business's owner switching gets 404, the console's open 403.
    expect((await api('PUT', '/user/switch', owner, { business_id: northsideId })).status).toBe(404);
    expect((await api('POST', `/admin/businesses/${northsideId}/open`, owner)).status).toBe(403);
    expect((await api('PUT', '/user/switch', staff, { business_id: northsideId })).status).toBe(404);
    expect((await entries()).length).toBe(before + expectedCount);
  });

  it('records an administrator signing in to the business they land in when they are a member of none', async () => {
    const harbourOwner = owner;
    const count = async () =>
      (await api('GET', '/business/audit-log?page_size=100', harbourOwner)).body.body.items.filter(
        (e: Json) => e.action === 'admin.business.open' && e.detail?.how === 'login',
      ).length;
    const before = await count();
    const login = await t.request({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: DEMO_LOGINS.admin, password: DEMO_PASSWORD },
    });
    expect(login.statusCode).toBe(200);
    const me = await api('GET', '/user/me', login.json().body.token);
    expect(me.body.body.businesses.find((b: Json) => b.selected)).toMatchObject({
      id: harbourside.id,
      role: null,
    });
    expect(await count()).toBe(before + 1);
  });

  it('clears the cache for super admins only', async () => {
    expect((await api('DELETE', '/business/clear/cache', owner)).status).toBe(403);
    expect((await api('DELETE', '/business/clear/cache', admin)).body.body).toEqual({ cleared: true });
  });
});
