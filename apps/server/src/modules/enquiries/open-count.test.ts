import type { LocationCounts } from '@switchboard/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  DEMO_LOGINS,
  eventually,
  getMe,
  inbound,
  type Json,
  selectedLocation,
  type TestApp,
} from '../../test/helpers.ts';

/** The Open tab's number and the Open list agree: a snoozed enquiry is counted in Snoozed only. */
describe('the Open count while enquiries sleep', () => {
  let t: TestApp;
  let owner: string;
  let location: string;
  const heard: LocationCounts[] = [];
  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.login(DEMO_LOGINS.owner);
    location = await selectedLocation(t, owner);
    t.app.events.on('counts.updated', ({ counts }) => heard.push(counts));
  });
  afterAll(() => t.close());

  const get = async (url: string) =>
    (await t.request({ method: 'GET', url: `/api/v1${url}`, token: owner })).json().body;
  const openList = async (extra = '') => {
    const items: Json[] = [];
    for (let page = 1; ; page++) {
      const body = await get(`/enquiries?status=open&page_size=100&page=${page}${extra}`);
      items.push(...body.items);
      if (!body.has_more) return items;
    }
  };
  const open = (c: Omit<LocationCounts, 'location_id'>) => c.assigned_count_open + c.unassigned_count_open;
  const patch = (id: string, payload: object) =>
    t.request({ method: 'PATCH', url: `/api/v1/enquiries/${id}`, token: owner, payload });

  it('counts in Open exactly what the Open list shows, in every answer and live', async () => {
    const made: string[] = [];
    for (const n of [1, 2, 3])
      made.push(
        (
          await inbound(t, owner, {
            location_id: location,
            from: { phone: `+6149157090${n}` },
            message: `Hi ${n}`,
          })
        ).enquiry_id,
      );
    const ownerId = (await getMe(t, owner)).id;
    expect((await patch(made[1]!, { assigned_to: ownerId })).statusCode).toBe(200);
    const later = new Date(Date.now() + 3_600_000).toISOString();
    heard.length = 0;
    expect((await patch(made[0]!, { snoozed_until: later })).statusCode).toBe(200);
    expect((await patch(made[1]!, { snoozed_until: later })).statusCode).toBe(200);

    const list = await openList();
    expect(list.map((e) => e.id)).not.toContain(made[0]);
    const counts: LocationCounts = await get(`/enquiries/counts?location_id=${location}`);
    expect(open(counts)).toBe(list.length);
    expect(counts.unassigned_count_open).toBe(list.filter((e) => !e.assigned_to).length);
    expect((await openList('&snoozed=true')).length).toBe(2);
    // The list's own total, the sums over every location, and the account's copy agree too.
    expect((await get('/enquiries?status=open&page_size=1')).total).toBe(list.length);
    const everyLocation = await openList('&all_locations=true');
    expect(open(await get('/enquiries/counts?all_locations=true'))).toBe(everyLocation.length);
    const mine = (await getMe(t, owner)).businesses
      .find((b) => b.selected)!
      .locations.find((l) => l.id === location)!;
    expect(open(mine)).toBe(list.length);
    // The Locations page counts the same, from the location list and from the location itself.
    const listed = (await get('/business/locations')).items.find((l: Json) => l.id === location);
    expect(open(listed)).toBe(list.length);
    expect(open(await get(`/business/locations/${location}`))).toBe(list.length);
    // Screens heard the snoozes: the last numbers they were sent are the list's.
    await eventually(async () => heard.length >= 2);
    expect(open(heard.at(-1)!)).toBe(list.length);

    // Waking it (snooze cleared) and a new enquiry: the live numbers follow the list.
    expect((await patch(made[0]!, { snoozed_until: null })).statusCode).toBe(200);
    await inbound(t, owner, { location_id: location, from: { phone: '+61491570909' }, message: 'New' });
    const after = await openList();
    await eventually(async () => open(heard.at(-1)!) === after.length);
    expect(open(await get(`/enquiries/counts?location_id=${location}`))).toBe(after.length);
  });
});
