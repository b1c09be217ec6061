import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiClient,
  createTestApp,
  DEMO_LOGINS,
  getMe,
  inbound,
  type Json,
  type TestApp,
} from '../../test/helpers.ts';

/**
 * A receptionist covering two of a practice's three locations: "All locations" means their two, in the list,
 * the counters and the unread counts, and nothing of the third or of another business can be reached.
 */
describe('All locations for staff who work at some of them', () => {
  let t: TestApp;
  let owner: string;
  let staff: string;
  let docklands: string;
  let second: string;
  let third: string;
  let atDocklands: string;
  let atSecond: string;
  let atThird: string;
  let otherTenant: string;
  const api = (...args: Parameters<ReturnType<typeof apiClient>>) => apiClient(t)(...args);
  const ids = (items: Json[]) => items.map((i) => i.id as string);

  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.login(DEMO_LOGINS.owner);
    staff = await t.login(DEMO_LOGINS.staff1);
    const staffId = (await getMe(t, staff)).id;
    [docklands, second] = (await getMe(t, owner)).businesses
      .find((b) => b.selected)!
      .locations.map((l) => l.id) as [string, string];
    const made = await api('POST', '/business/locations', owner, { name: 'Northside' });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    third = made.body.body.id;
    const put = await api('PUT', `/business/members/${staffId}/locations`, owner, {
      location_ids: [docklands, second],
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const text = async (location_id: string, phone: string, message: string) =>
      (await inbound(t, owner, { location_id, from: { phone }, message })).enquiry_id as string;
    atDocklands = await text(docklands, '+61491570801', 'At Docklands');
    atSecond = await text(second, '+61491570802', 'At the second');
    atThird = await text(third, '+61491570803', 'At Northside');
    const north = await t.login(DEMO_LOGINS.northsideOwner);
    const northLocation = (await getMe(t, north)).businesses.find((b) => b.selected)!.locations[0]!.id;
    otherTenant = await (async () =>
      (await inbound(t, north, { location_id: northLocation, from: { phone: '+61491570804' }, message: 'x' }))
        .enquiry_id as string)();
  });
  afterAll(() => t.close());

  it('is offered their two locations only, in their account', async () => {
    const business = (await getMe(t, staff)).businesses.find((b) => b.selected)!;
    expect(business.locations.map((l) => l.id)).toEqual([docklands, second]);
  });

  it('lists the enquiries of exactly their two locations', async () => {
    for (const status of ['open', 'closed']) {
      const list = await api('GET', `/enquiries?all_locations=true&status=${status}&page_size=100`, staff);
      expect(list.status).toBe(200);
      const locs = new Set(list.body.body.items.map((e: Json) => e.location_id));
      for (const l of locs) expect([docklands, second]).toContain(l);
    }
    const open = ids(
      (await api('GET', '/enquiries?all_locations=true&page_size=100', staff)).body.body.items,
    );
    expect(open).toEqual(expect.arrayContaining([atDocklands, atSecond]));
    expect(open).not.toContain(atThird);
    expect(open).not.toContain(otherTenant);
    // A search across their locations finds nothing at the third, though it is there.
    const found = await api('GET', '/enquiries?all_locations=true&q=Northside&page_size=100', staff);
    expect(ids(found.body.body.items)).not.toContain(atThird);
    const ownerFound = await api('GET', '/enquiries?all_locations=true&q=Northside&page_size=100', owner);
    expect(ids(ownerFound.body.body.items)).toContain(atThird);
  });

  it('counts and unread counts cover exactly their two', async () => {
    const count = async (query: string, token = staff) =>
      (await api('GET', `/enquiries/counts?${query}`, token)).body.body;
    const [one, two, all] = await Promise.all([
      count(`location_id=${docklands}`),
      count(`location_id=${second}`),
      count('all_locations=true'),
    ]);
    const sum = (k: string) => one[k] + two[k];
    expect(all).toEqual({
      location_id: 'all',
      assigned_count_open: sum('assigned_count_open'),
      assigned_count_closed: sum('assigned_count_closed'),
      unassigned_count_open: sum('unassigned_count_open'),
      unassigned_count_closed: sum('unassigned_count_closed'),
    });
    // The owner's sum includes the third location's enquiry; the staff member's does not.
    const ownerAll = await count('all_locations=true', owner);
    const thirds = await count(`location_id=${third}`, owner);
    expect(ownerAll.unassigned_count_open).toBe(all.unassigned_count_open + thirds.unassigned_count_open);
    expect(thirds.unassigned_count_open).toBeGreaterThanOrEqual(1);

    const unread = (await api('GET', '/enquiries/unread', staff)).body.body.items as Json[];
    expect(unread.map((r) => r.location_id)).toEqual([docklands, second]);
    expect(unread.every((r) => r.unread >= 1)).toBe(true);
    const ownerUnread = (await api('GET', '/enquiries/unread', owner)).body.body.items as Json[];
    expect(ownerUnread.map((r) => r.location_id)).toEqual([docklands, second, third]);
  });

  it('answers 404 for the other location’s and the other tenant’s ids', async () => {
    for (const id of [atThird, otherTenant]) {
      expect((await api('GET', `/enquiries/${id}`, staff)).status).toBe(404);
      expect((await api('GET', `/enquiries/${id}/messages`, staff)).status).toBe(404);
      expect((await api('PUT', `/enquiries/${id}/mentions/read`, staff)).status).toBe(404);
    }
    expect((await api('GET', `/enquiries?location_id=${third}`, staff)).status).toBe(404);
    expect((await api('GET', `/enquiries/counts?location_id=${third}`, staff)).status).toBe(404);
    const bulk = await api('POST', '/enquiries/bulk', staff, {
      ids: [atDocklands, atThird],
      patch: { status: 'closed' },
    });
    expect(bulk.status).toBe(404);
    // Nothing was changed by the refused bulk close.
    expect((await api('GET', `/enquiries/${atDocklands}`, staff)).body.body.status).toBe('open');
  });
});
