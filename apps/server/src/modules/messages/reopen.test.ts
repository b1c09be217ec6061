import { enquiries, locations } from '@switchboard/db';
import type { LocationCounts, StaffNotification } from '@switchboard/shared';
import { eq, sql } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  DEMO_LOGINS,
  getMe,
  inbound,
  listen,
  openSocket,
  selectedLocation,
  type TestApp,
} from '../../test/helpers.ts';

/** A customer who writes again after their enquiry was closed continues it, within the reopen window. */
describe('a customer writing again after their enquiry was closed', () => {
  let t: TestApp;
  let url: string;
  let owner: string;
  let staff: string;
  let staffId: string;
  let location: string;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    url = await listen(t);
    owner = await t.login(DEMO_LOGINS.owner);
    staff = await t.login(DEMO_LOGINS.staff1);
    staffId = (await getMe(t, staff)).id;
    location = await selectedLocation(t, owner);
  });
  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await t.close();
  });

  const counts = async (): Promise<LocationCounts> => {
    const [l] = await t.database.db.select().from(locations).where(eq(locations.id, location));
    return {
      location_id: l!.id,
      assigned_count_open: l!.assigned_count_open,
      assigned_count_closed: l!.assigned_count_closed,
      unassigned_count_open: l!.unassigned_count_open,
      unassigned_count_closed: l!.unassigned_count_closed,
    };
  };
  const patch = (id: string, payload: object) =>
    t.request({ method: 'PATCH', url: `/api/v1/enquiries/${id}`, token: owner, payload });
  const enquiry = async (id: string) =>
    (await t.request({ method: 'GET', url: `/api/v1/enquiries/${id}`, token: owner })).json().body;

  it('reopens their most recent enquiry on that channel, keeps the assignee, tells them, and counts it open again', async () => {
    const phone = '+61491570301';
    const first = await inbound(t, owner, {
      location_id: location,
      from: { phone, name: 'Rita Return' },
      message: 'Can I book?',
    });
    expect((await patch(first.enquiry_id, { assigned_to: staffId })).statusCode).toBe(200);
    expect((await patch(first.enquiry_id, { status: 'closed' })).statusCode).toBe(200);
    const before = await counts();

    const socket = await openSocket(url, staff, sockets);
    const told = new Promise<StaffNotification>((resolve) => socket.once('notification', resolve));
    const again = await inbound(t, owner, {
      location_id: location,
      from: { phone },
      message: 'Actually, one more thing',
    });
    expect(again.enquiry_id).toBe(first.enquiry_id);
    const e = await enquiry(first.enquiry_id);
    expect([e.status, e.assigned_to, e.last_message]).toEqual(['open', staffId, 'Actually, one more thing']);
    expect(await counts()).toEqual({
      ...before,
      assigned_count_open: before.assigned_count_open + 1,
      assigned_count_closed: before.assigned_count_closed - 1,
    });
    expect(await told).toEqual({
      kind: 'reopened',
      enquiry_id: first.enquiry_id,
      location_id: location,
      title: 'Rita Return wrote again',
      body: 'Their closed enquiry is open again and still assigned to you: “Actually, one more thing”',
    });

    // The thread holds both conversations' messages (a page reads oldest to newest).
    const messages = (
      await t.request({ method: 'GET', url: `/api/v1/enquiries/${first.enquiry_id}/messages`, token: owner })
    ).json().body.items;
    expect(messages.map((m: { message: string }) => m.message)).toEqual([
      'Can I book?',
      'Actually, one more thing',
    ]);
    // The thread says why it is open again, as it does when staff reopen it.
    const notes = (
      await t.request({ method: 'GET', url: `/api/v1/enquiries/${first.enquiry_id}/notes`, token: owner })
    ).json().body.items as { kind: string; body: string }[];
    expect(notes.filter((n) => n.kind === 'event').map((n) => n.body)).toEqual([
      'Assigned to Sam Nguyen by Olivia Harbour',
      'Closed by Olivia Harbour',
      'Reopened when Rita Return wrote again',
    ]);

    // Two messages at once reopen it once: counters move once.
    expect((await patch(first.enquiry_id, { status: 'closed' })).statusCode).toBe(200);
    const closed = await counts();
    const [a, b] = await Promise.all([
      inbound(t, owner, { location_id: location, from: { phone }, message: 'Hello?' }),
      inbound(t, owner, { location_id: location, from: { phone }, message: 'Anyone there?' }),
    ]);
    expect([a.enquiry_id, b.enquiry_id]).toEqual([first.enquiry_id, first.enquiry_id]);
    expect(await counts()).toEqual({
      ...closed,
      assigned_count_open: closed.assigned_count_open + 1,
      assigned_count_closed: closed.assigned_count_closed - 1,
    });
  });

  it('opens a new enquiry when the closed one is older than the window, and an unassigned one reopens unassigned', async () => {
    const phone = '+61491570302';
    const old = await inbound(t, owner, { location_id: location, from: { phone }, message: 'Last year' });
    expect((await patch(old.enquiry_id, { status: 'closed' })).statusCode).toBe(200);
    await t.database.db
      .update(enquiries)
      .set({ last_message_at: sql`now() - interval '31 days'` })
      .where(eq(enquiries.id, old.enquiry_id));
    const before = await counts();
    const fresh = await inbound(t, owner, { location_id: location, from: { phone }, message: 'Back again' });
    expect(fresh.enquiry_id).not.toBe(old.enquiry_id);
    expect((await enquiry(old.enquiry_id)).status).toBe('closed');
    expect(await counts()).toEqual({ ...before, unassigned_count_open: before.unassigned_count_open + 1 });

    // Closed a moment ago and unassigned: reopened, unassigned, counted as open again.
    expect((await patch(fresh.enquiry_id, { status: 'closed' })).statusCode).toBe(200);
    const closed = await counts();
    const reply = await inbound(t, owner, { location_id: location, from: { phone }, message: 'Thanks' });
    expect(reply.enquiry_id).toBe(fresh.enquiry_id);
    expect(await enquiry(fresh.enquiry_id)).toMatchObject({ status: 'open', assigned_to: null });
    expect(await counts()).toEqual({
      ...closed,
      unassigned_count_open: closed.unassigned_count_open + 1,
      unassigned_count_closed: closed.unassigned_count_closed - 1,
    });

    // Another channel never continues it.
    const other = await inbound(t, owner, {
      channel: 'whatsapp',
      location_id: location,
      from: { phone },
      message: 'On WhatsApp now',
    });
    expect(other.enquiry_id).not.toBe(fresh.enquiry_id);
  });
});

describe('with the reopen window set to nothing', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ REOPEN_WINDOW_DAYS: '0' });
  });
  afterAll(() => t.close());

  it('opens a new enquiry for every message after a close', async () => {
    const owner = await t.login(DEMO_LOGINS.owner);
    const location = await selectedLocation(t, owner);
    const first = await inbound(t, owner, {
      location_id: location,
      from: { phone: '+61491570303' },
      message: 'One',
    });
    await t.request({
      method: 'PATCH',
      url: `/api/v1/enquiries/${first.enquiry_id}`,
      token: owner,
      payload: { status: 'closed' },
    });
    const next = await inbound(t, owner, {
      location_id: location,
      from: { phone: '+61491570303' },
      message: 'Two',
    });
    expect(next.enquiry_id).not.toBe(first.enquiry_id);
  });
});
