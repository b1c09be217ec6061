import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DEMO_LOGINS, type TestApp } from '../../test/helpers.ts';

describe('GET /business/members', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('lists the selected business’s people only, with their roles', async () => {
    const staff = await t.login(DEMO_LOGINS.staff1);
    const res = await t.request({ method: 'GET', url: '/api/v1/business/members', token: staff });
    expect(res.statusCode).toBe(200);
    const items = res.json().body.items as { email: string; role: string }[];
    expect(items.map((m) => [m.email, m.role])).toEqual([
      ['owner@harbourside.test', 'owner'],
      ['staff2@harbourside.test', 'staff'],
      ['staff1@harbourside.test', 'staff'],
      ['admin@switchboard.test', 'staff'],
    ]);
    const north = await t.login(DEMO_LOGINS.northsideOwner);
    const theirs = (await t.request({ method: 'GET', url: '/api/v1/business/members', token: north })).json()
      .body.items;
    expect(theirs.map((m: { email: string }) => m.email).sort()).toEqual([
      'admin@switchboard.test',
      'owner@northside.test',
    ]);
    expect((await t.request({ method: 'GET', url: '/api/v1/business/members' })).statusCode).toBe(401);
  });
});
