import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DEMO_LOGINS, type TestApp } from '../../test/helpers.ts';

describe('GET /user/me', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('returns the user with businesses and locations, the selection flagged and counters present', async () => {
    const token = await t.login(DEMO_LOGINS.owner);
    const res = await t.request({ method: 'GET', url: '/api/v1/user/me', token });
    expect(res.statusCode).toBe(200);
    const me = res.json().body;
    expect(me.email).toBe(DEMO_LOGINS.owner);
    expect(me.super_admin).toBe(false);
    expect(me.businesses).toHaveLength(1);
    const [business] = me.businesses;
    expect(business).toMatchObject({
      name: 'Harbourside Dental',
      selected: true,
      is_owner: true,
      message_limit: 500,
    });
    expect(business.owner_user_id).toBe(me.id);
    expect(business.locations.map((l: { selected: boolean }) => l.selected)).toEqual([true, false]);
    expect(business.locations[1]).toMatchObject({
      name: null,
      address: null,
      assigned_count_open: 0,
      assigned_count_closed: 0,
      unassigned_count_open: 0,
      unassigned_count_closed: 0,
    });
  });

  it('updates notification settings and refuses unknown fields', async () => {
    const token = await t.login(DEMO_LOGINS.staff1);
    const ok = await t.request({
      method: 'PATCH',
      url: '/api/v1/user/me',
      token,
      payload: { enable_message_notification: false },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().body.enable_message_notification).toBe(false);
    const bad = await t.request({
      method: 'PATCH',
      url: '/api/v1/user/me',
      token,
      payload: { super_admin: true },
    });
    expect(bad.statusCode).toBe(400);
    const me = (await t.request({ method: 'GET', url: '/api/v1/user/me', token })).json().body;
    expect(me.super_admin).toBe(false);
  });
});

describe('responses', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers unknown /api routes with a JSON 404 and a request-id header', async () => {
    const res = await t.request({ method: 'GET', url: '/api/v1/no-such-thing' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'No route GET /api/v1/no-such-thing.', code: 'not_found' });
    expect(res.headers['request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers an oversized body with 413 and a malformed one with 400', async () => {
    const big = await t.request({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: 'a@b.co', password: 'x'.repeat(2 * 1024 * 1024) },
    });
    expect(big.statusCode).toBe(413);
    const malformed = await t.request({
      method: 'POST',
      url: '/api/v1/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().message).toBeTruthy();
  });
});

describe('failures inside the server', () => {
  it('answer 500 with a generic message and never the internal text', async () => {
    const t = await createTestApp();
    const token = await t.login(DEMO_LOGINS.owner);
    await t.database.close();
    const res = await t.request({ method: 'GET', url: '/api/v1/user/me', token });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({
      message: 'Something went wrong on our side. Our engineers have been notified.',
      code: 'internal_error',
    });
    expect(res.headers['request-id']).toBeTruthy();
    // Readable by a page on another origin too (the widget on a customer's website, a separate API host).
    expect(res.headers['access-control-expose-headers']).toBe('request-id, refresh-token');
    await t.app.close();
  });
});
