import { enquiries, locations } from '@switchboard/db';
import type { StaffNotification } from '@switchboard/shared';
import { eq } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enquiryWake } from '../../jobs/definitions/enquiry-wake.ts';
import {
  createTestApp,
  DEMO_LOGINS,
  eventually,
  getMe,
  inbound,
  listen,
  openSocket,
  selectedLocation,
  type TestApp,
} from '../../test/helpers.ts';

describe('snoozing an enquiry', () => {
  let t: TestApp;
  let url: string;
  let owner: string;
  let location: string;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    t = await createTestApp();
    url = await listen(t);
    owner = await t.login(DEMO_LOGINS.owner);
    location = await selectedLocation(t, owner);
  });
  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await t.close();
  });

  const patch = (id: string, payload: object) =>
    t.request({ method: 'PATCH', url: `/api/v1/enquiries/${id}`, token: owner, payload });
  const openIds = async (extra = '') =>
    (
      (
        await t.request({ method: 'GET', url: `/api/v1/enquiries?page_size=100${extra}`, token: owner })
      ).json().body.items as { id: string }[]
    ).map((e) => e.id);
  const counters = async () => {
    const [l] = await t.database.db.select().from(locations).where(eq(locations.id, location));
    return [
      l!.assigned_count_open,
      l!.assigned_count_closed,
      l!.unassigned_count_open,
      l!.unassigned_count_closed,
    ];
  };

  it('hides it from Open until its time, keeps the counters, and brings it back live with its assignee told', async () => {
    const staff = await t.login(DEMO_LOGINS.staff1);
    const staffId = (await getMe(t, staff)).id;
    const { enquiry_id } = await inbound(t, owner, {
      location_id: location,
      from: { phone: '+61491570701' },
      message: 'Call me next week',
    });
    expect((await patch(enquiry_id, { assigned_to: staffId })).statusCode).toBe(200);
    const before = await counters();

    const until = new Date(Date.now() + 2500).toISOString();
    const res = await patch(enquiry_id, { snoozed_until: until });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().body.snoozed_until).toBe(until);
    expect(await openIds()).not.toContain(enquiry_id);
    expect(await openIds('&snoozed=true')).toContain(enquiry_id);
    expect(await counters()).toEqual(before);
    // The job that wakes it is stored with the enquiry's database, so it survives a restart.
    const [job] = await t.app.jobs.boss.findJobs(enquiryWake.name, { key: `${enquiry_id}:${until}` });
    expect(job?.data).toEqual({ enquiry_id, until });

    const socket = await openSocket(url, staff, sockets);
    const told = new Promise<StaffNotification>((resolve) => socket.once('notification', resolve));
    expect((await told).kind).toBe('woke');
    const [woke] = await t.database.db.select().from(enquiries).where(eq(enquiries.id, enquiry_id));
    expect(woke).toMatchObject({ snoozed_until: null, seen: false, status: 'open', assigned_to: staffId });
    expect(await openIds()).toContain(enquiry_id);
    expect(await counters()).toEqual(before);
  });

  it('wakes when the customer writes, refuses a past time or a closed enquiry, and closing ends a snooze', async () => {
    const { enquiry_id } = await inbound(t, owner, {
      location_id: location,
      from: { phone: '+61491570702' },
      message: 'Hi',
    });
    const later = new Date(Date.now() + 3_600_000).toISOString();
    expect((await patch(enquiry_id, { snoozed_until: later })).statusCode).toBe(200);
    expect(await openIds()).not.toContain(enquiry_id);
    await inbound(t, owner, {
      location_id: location,
      from: { phone: '+61491570702' },
      message: 'Still there?',
    });
    await eventually(async () => (await openIds()).includes(enquiry_id));

    const past = await patch(enquiry_id, { snoozed_until: new Date(Date.now() - 1000).toISOString() });
    expect(past.statusCode).toBe(422);
    expect(past.json().message).toBe('Snooze until a time in the future, at most a year ahead.');
    expect((await patch(enquiry_id, { snoozed_until: 'tomorrow' })).statusCode).toBe(400);

    expect((await patch(enquiry_id, { snoozed_until: later })).statusCode).toBe(200);
    const closed = await patch(enquiry_id, { status: 'closed' });
    expect(closed.json().body).toMatchObject({ status: 'closed', snoozed_until: null });
    const refused = await patch(enquiry_id, { snoozed_until: later });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe('A closed enquiry cannot be snoozed. Reopen it first.');
  });
});
