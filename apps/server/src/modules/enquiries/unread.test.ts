import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DEMO_LOGINS, getMe, inbound, type TestApp } from '../../test/helpers.ts';

describe('GET /enquiries/unread', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('counts open enquiries with unseen news per location of the business, and only its own', async () => {
    const owner = await t.login(DEMO_LOGINS.owner);
    const [docklands, second] = (await getMe(t, owner)).businesses
      .find((b) => b.selected)!
      .locations.map((l) => l.id);
    const unread = async (token = owner) =>
      (await t.request({ method: 'GET', url: '/api/v1/enquiries/unread', token })).json().body.items as {
        location_id: string;
        unread: number;
      }[];
    const before = await unread();
    expect(before.map((r) => r.location_id)).toEqual([docklands, second]);

    const a = await inbound(t, owner, {
      location_id: docklands!,
      from: { phone: '+61491570501' },
      message: 'One',
    });
    await inbound(t, owner, { location_id: docklands!, from: { phone: '+61491570502' }, message: 'Two' });
    await inbound(t, owner, { location_id: second!, from: { phone: '+61491570503' }, message: 'Three' });
    const after = await unread();
    expect(after.map((r) => r.unread)).toEqual([before[0]!.unread + 2, before[1]!.unread + 1]);

    await t.request({ method: 'PUT', url: `/api/v1/enquiries/${a.enquiry_id}/seen`, token: owner });
    expect((await unread())[0]!.unread).toBe(before[0]!.unread + 1);

    const north = await t.login(DEMO_LOGINS.northsideOwner);
    const theirs = await unread(north);
    expect(theirs).toHaveLength(1);
    expect(theirs.map((r) => r.location_id)).not.toContain(docklands);
    expect((await t.request({ method: 'GET', url: '/api/v1/enquiries/unread' })).statusCode).toBe(401);
  });
});

describe('every location at once', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('lists the enquiries of all the business’s locations, and sums their counters', async () => {
    const owner = await t.login(DEMO_LOGINS.owner);
    const [docklands, second] = (await getMe(t, owner)).businesses
      .find((b) => b.selected)!
      .locations.map((l) => l.id);
    const north = await t.login(DEMO_LOGINS.northsideOwner);
    const northLocation = (await getMe(t, north)).businesses.find((b) => b.selected)!.locations[0]!.id;
    const a = await inbound(t, owner, {
      location_id: docklands!,
      from: { phone: '+61491570511' },
      message: 'A',
    });
    const b = await inbound(t, owner, {
      location_id: second!,
      from: { phone: '+61491570512' },
      message: 'B',
    });
    const c = await inbound(t, north, {
      location_id: northLocation,
      from: { phone: '+61491570513' },
      message: 'C',
    });

    const list = (
      await t.request({
        method: 'GET',
        url: '/api/v1/enquiries?all_locations=true&page_size=100',
        token: owner,
      })
    ).json().body;
    const ids = list.items.map((e: { id: string }) => e.id);
    expect(ids).toEqual(expect.arrayContaining([a.enquiry_id, b.enquiry_id]));
    expect(ids).not.toContain(c.enquiry_id);
    expect(list.total).toBeNull();

    const count = async (url: string) => (await t.request({ method: 'GET', url, token: owner })).json().body;
    const [one, two, all] = await Promise.all([
      count(`/api/v1/enquiries/counts?location_id=${docklands}`),
      count(`/api/v1/enquiries/counts?location_id=${second}`),
      count('/api/v1/enquiries/counts?all_locations=true'),
    ]);
    expect(all).toEqual({
      location_id: 'all',
      assigned_count_open: one.assigned_count_open + two.assigned_count_open,
      assigned_count_closed: one.assigned_count_closed + two.assigned_count_closed,
      unassigned_count_open: one.unassigned_count_open + two.unassigned_count_open,
      unassigned_count_closed: one.unassigned_count_closed + two.unassigned_count_closed,
    });
  });
});
