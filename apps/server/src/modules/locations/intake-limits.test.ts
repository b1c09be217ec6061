import { messages } from '@switchboard/db';
import { INTAKE_LIMIT_DEFAULTS } from '@switchboard/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DEMO_LOGINS, getMe, namedIn, type TestApp } from '../../test/helpers.ts';
import { startRedis } from '../../test/server-process.ts';

const limitsUrl = (id: string) => `/api/v1/business/locations/${id}/limits`;

describe('per-location limits on chats and forms', () => {
  let t: TestApp;
  let owner: string;
  let staff: string;
  let north: string;
  let loc1: string;
  let loc2: string;
  let northLoc: string;
  let formPath: string;
  const count = async () =>
    (await t.database.db.select({ n: sql<number>`count(*)::int` }).from(messages))[0]!.n;
  const chat = (location: string, ip: string, headers: Record<string, string> = {}) =>
    t.request({
      method: 'POST',
      url: `/widget-api/locations/${location}/sessions`,
      payload: { name: 'Vera Visitor' },
      remoteAddress: ip,
      headers,
    });
  const form = (payload: string, ip: string) =>
    t.request({
      method: 'POST',
      url: formPath,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload,
      remoteAddress: ip,
    });

  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.login(DEMO_LOGINS.owner);
    staff = await t.login(DEMO_LOGINS.staff1);
    north = await t.login(DEMO_LOGINS.northsideOwner);
    const me = await getMe(t, owner);
    [loc1, loc2] = me.businesses.find((b) => b.selected)!.locations.map((l) => l.id) as [string, string];
    northLoc = (await getMe(t, north)).businesses.find((b) => b.selected)!.locations[0]!.id;
    const hook = await t.request({
      method: 'GET',
      url: '/api/v1/business/mybusiness/web-form-webhook',
      token: owner,
    });
    formPath = new URL(hook.json().body.url).pathname;
  });
  afterAll(() => t.close());

  it('starts at the defaults; the owner changes them, staff and other businesses cannot', async () => {
    const read = await t.request({ method: 'GET', url: limitsUrl(loc1), token: staff });
    expect(read.statusCode).toBe(200);
    expect(read.json().body).toMatchObject({ limits: INTAKE_LIMIT_DEFAULTS, window_seconds: 3600 });

    const limits = { chats_per_ip: 2, messages_per_visitor: 30, forms_per_ip: 2 };
    const put = await t.request({ method: 'PUT', url: limitsUrl(loc1), token: owner, payload: limits });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().body.limits).toEqual(limits);
    expect(
      (await t.request({ method: 'PUT', url: limitsUrl(loc1), token: staff, payload: limits })).statusCode,
    ).toBe(403);
    expect((await t.request({ method: 'GET', url: limitsUrl(loc1), token: north })).statusCode).toBe(404);
    expect(
      (await t.request({ method: 'PUT', url: limitsUrl(northLoc), token: owner, payload: limits }))
        .statusCode,
    ).toBe(404);
  });

  it('refuses limits out of range with a message naming the limit, and keeps the old ones', async () => {
    for (const [payload, message] of [
      [
        { chats_per_ip: 0, messages_per_visitor: 30, forms_per_ip: 2 },
        /New chats from one network, per hour: must be at least 1/,
      ],
      [
        { chats_per_ip: 2, messages_per_visitor: 1001, forms_per_ip: 2 },
        /Chat messages from one visitor, per hour: must be at most 1000/,
      ],
      [
        { chats_per_ip: 2, messages_per_visitor: 30, forms_per_ip: 2.5 },
        /Form submissions from one network, per hour: must be a whole number/,
      ],
      [{ chats_per_ip: 2, messages_per_visitor: 30 }, /forms_per_ip/],
    ] as const) {
      const res = await t.request({ method: 'PUT', url: limitsUrl(loc1), token: owner, payload });
      expect(res.statusCode, res.body).toBe(400);
      expect(namedIn(res.json())).toMatch(message);
    }
    const after = await t.request({ method: 'GET', url: limitsUrl(loc1), token: owner });
    expect(after.json().body.limits.chats_per_ip).toBe(2);
  });

  it("holds new chats to the location's limit, leaves other locations alone, and ignores a forged X-Forwarded-For", async () => {
    expect((await chat(loc1, '203.0.113.10')).statusCode).toBe(200);
    expect((await chat(loc1, '203.0.113.10', { 'x-forwarded-for': '192.0.2.1' })).statusCode).toBe(200);
    // No proxy is configured: a client naming another address is still counted as itself.
    const third = await chat(loc1, '203.0.113.10', { 'x-forwarded-for': '192.0.2.2' });
    expect(third.statusCode).toBe(429);
    expect(third.json().message).toMatch(
      /^Too many chats started from your network\. Try again in \d+ (seconds|minutes)\.$/,
    );
    expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
    // Another network, and the same network at another location (default 6), are not affected.
    expect((await chat(loc1, '203.0.113.11')).statusCode).toBe(200);
    for (let i = 0; i < INTAKE_LIMIT_DEFAULTS.chats_per_ip; i++) {
      expect((await chat(loc2, '203.0.113.10')).statusCode).toBe(200);
    }
    expect((await chat(loc2, '203.0.113.10')).statusCode).toBe(429);
  });

  it("holds form posts to the location's limit; a refused post stores nothing", async () => {
    const before = await count();
    const post = (i: number) =>
      form(`phone=%2B6149157009${i}&message=Form+${i}&location_id=${loc1}`, '203.0.113.20');
    expect((await post(1)).statusCode).toBe(200);
    expect((await post(2)).statusCode).toBe(200);
    const refused = await post(3);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toMatch(
      /^Too many form submissions from this address\. Please try again in/,
    );
    expect(await count()).toBe(before + 2);
    // The business's other location keeps the default.
    expect(
      (await form(`phone=%2B61491570094&message=Other&location_id=${loc2}`, '203.0.113.20')).statusCode,
    ).toBe(200);
  });

  it("sends a form's visitor back only to the business's own sites", async () => {
    const before = await count();
    const post = (redirect: string, i: number) =>
      form(
        `phone=%2B6149157008${i}&message=R${i}&_redirect=${encodeURIComponent(redirect)}`,
        `203.0.113.${30 + i}`,
      );

    const evil = await post('https://evil.example/phish', 1);
    expect(evil.statusCode).toBe(200);
    expect(evil.headers.location).toBeUndefined();
    expect(evil.body).toContain('Thank you');
    for (const [i, bad] of [
      'javascript:alert(1)',
      '//evil.example/x',
      'https://harbourside.test.evil.example/',
    ].entries()) {
      const res = await post(bad, 2 + i);
      expect(res.statusCode, bad).toBe(200);
      expect(res.headers.location).toBeUndefined();
    }
    // Every submission was kept, redirect or not.
    expect(await count()).toBe(before + 4);

    // The business website (seeded https://harbourside.test) and the other sites the owner lists.
    expect((await post('https://harbourside.test/thanks', 5)).headers.location).toBe(
      'https://harbourside.test/thanks',
    );
    const shop = 'https://shop.harbourside.example:8443';
    const bad = await t.request({
      method: 'PUT',
      url: '/api/v1/business/mybusiness',
      token: owner,
      payload: { site_origins: ['https://shop.harbourside.example/cart'] },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(
      /Give the site only, without a page: https:\/\/shop\.harbourside\.example/,
    );
    const saved = await t.request({
      method: 'PUT',
      url: '/api/v1/business/mybusiness',
      token: owner,
      payload: { site_origins: [`${shop}/`, shop] },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().body.site_origins).toEqual([shop]);
    expect((await post(`${shop}/thanks?ok=1`, 6)).headers.location).toBe(`${shop}/thanks?ok=1`);
    expect((await post('https://shop.harbourside.example/thanks', 7)).headers.location).toBeUndefined();
  });

  it('counts the chats of an IPv6 network as one: every address of a /64 shares the allowance', async () => {
    for (let i = 0; i < INTAKE_LIMIT_DEFAULTS.chats_per_ip; i++)
      expect((await chat(northLoc, `2001:db8:c4a7:1::${(i + 1).toString(16)}`)).statusCode).toBe(200);
    expect((await chat(northLoc, '2001:db8:c4a7:1:8000::1')).statusCode).toBe(429);
    expect((await chat(northLoc, '2001:db8:c4a7:2::1')).statusCode).toBe(200);
  });
});

describe('limits shared between app nodes through Redis', () => {
  let stop: (() => void) | undefined;
  let url = process.env.TEST_REDIS_URL;
  let nodes: TestApp[] = [];

  beforeAll(async () => {
    if (!url) {
      const redis = await startRedis();
      url = redis?.url;
      stop = redis?.stop;
    }
    if (!url) return;
    nodes = [await createTestApp({ REDIS_URL: url }), await createTestApp({ REDIS_URL: url })];
  });
  afterAll(async () => {
    await Promise.all(nodes.map((n) => n.close()));
    stop?.();
  });

  it('counts a network once across two nodes', async (ctx) => {
    // `npm test` installs redis-server; only a machine without it skips this (and says so).
    if (!url && process.env.CI) throw new Error('redis-server is not installed: run scripts/test.sh');
    if (!url) ctx.skip();
    const [a, b] = nodes as [TestApp, TestApp];
    expect(a.app.limiter.shared).toBe(true);
    const owner = await a.login(DEMO_LOGINS.owner);
    const loc = (await getMe(a, owner)).businesses.find((x) => x.selected)!.locations[0]!.id;
    // Both nodes have their own copy of the demo data, with the same ids: one location, as in production.
    const ip = `198.18.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
    const chat = (node: TestApp) =>
      node.request({
        method: 'POST',
        url: `/widget-api/locations/${loc}/sessions`,
        payload: { name: 'Nina Node' },
        remoteAddress: ip,
      });
    const statuses: number[] = [];
    for (let i = 0; i < INTAKE_LIMIT_DEFAULTS.chats_per_ip + 1; i++) {
      statuses.push((await chat(i % 2 ? b : a)).statusCode);
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(INTAKE_LIMIT_DEFAULTS.chats_per_ip);
    expect(statuses.at(-1)).toBe(429);
  });
});
