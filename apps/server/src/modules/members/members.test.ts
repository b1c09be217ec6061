import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DEMO_LOGINS, inbound, selectedLocation, type TestApp } from '../../test/helpers.ts';

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
    ]);
    const north = await t.login(DEMO_LOGINS.northsideOwner);
    const theirs = (await t.request({ method: 'GET', url: '/api/v1/business/members', token: north })).json()
      .body.items;
    expect(theirs.map((m: { email: string }) => m.email)).toEqual(['owner@northside.test']);
    expect((await t.request({ method: 'GET', url: '/api/v1/business/members' })).statusCode).toBe(401);
  });

  it('does not make the Switchboard administrator a teammate of the businesses they can open', async () => {
    const admin = await t.login(DEMO_LOGINS.admin);
    const me = (await t.request({ method: 'GET', url: '/api/v1/user/me', token: admin })).json().body;
    expect(me.businesses.map((b: { name: string; role: string | null }) => [b.name, b.role])).toEqual([
      ['Harbourside Dental', null],
      ['Northside Plumbing', null],
    ]);
    const members = (await t.request({ method: 'GET', url: '/api/v1/business/members', token: admin })).json()
      .body.items;
    expect(members.map((m: { email: string }) => m.email)).not.toContain('admin@switchboard.test');

    const owner = await t.login(DEMO_LOGINS.owner);
    const location = await selectedLocation(t, owner);
    const { enquiry_id } = await inbound(t, owner, {
      location_id: location,
      from: { phone: '+61491570031' },
      message: 'Hi',
    });
    const assign = await t.request({
      method: 'PATCH',
      url: `/api/v1/enquiries/${enquiry_id}`,
      token: owner,
      payload: { assigned_to: me.id },
    });
    expect(assign.statusCode).toBe(422);
    expect(assign.json().message).toBe('That person is not a member of this business.');
  });
});
