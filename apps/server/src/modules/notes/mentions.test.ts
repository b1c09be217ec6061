import type { Note } from '@switchboard/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiClient,
  createTestApp,
  DEMO_LOGINS,
  getMe,
  inbound,
  type Json,
  selectedLocation,
  type TestApp,
} from '../../test/helpers.ts';

describe('mentions kept, and what happened to an enquiry written in its thread', () => {
  let t: TestApp;
  let owner: string;
  let staff: string;
  let staffId: string;
  let location: string;
  const api = (...args: Parameters<ReturnType<typeof apiClient>>) => apiClient(t)(...args);
  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.login(DEMO_LOGINS.owner);
    staff = await t.login(DEMO_LOGINS.staff1);
    staffId = (await getMe(t, staff)).id;
    location = await selectedLocation(t, owner);
  });
  afterAll(() => t.close());

  const enquiry = async (phone: string) =>
    (
      await inbound(t, owner, {
        location_id: location,
        from: { phone, name: 'Mia Mention' },
        message: 'Hello',
      })
    ).enquiry_id as string;

  it('lists where the person was mentioned, newest first, unread until they open it', async () => {
    const a = await enquiry('+61491571001');
    const b = await enquiry('+61491571002');
    const note = async (id: string, body: string, mentions: string[]) =>
      (await api('POST', `/enquiries/${id}/notes`, owner, { body, mentions })).body.body as Note;
    const first = await note(a, '@Sam can you call her back?', [staffId]);
    await note(a, 'Nothing for Sam here', []);
    const second = await note(b, '@Sam price list please', [staffId]);

    const mentions = await api('GET', '/mentions', staff);
    expect(mentions.status).toBe(200);
    expect(mentions.body.body.items.map((m: Json) => m.note.id)).toEqual([second.id, first.id]);
    expect(mentions.body.body.items.map((m: Json) => m.read)).toEqual([false, false]);
    expect(mentions.body.body.items[0].enquiry).toMatchObject({ id: b, customer: { name: 'Mia Mention' } });
    expect(mentions.body.body.unread).toBe(2);
    // The author is not mentioned: their list stays empty.
    expect((await api('GET', '/mentions', owner)).body.body.items).toEqual([]);

    const read = await api('PUT', `/enquiries/${a}/mentions/read`, staff);
    expect(read.status).toBe(200);
    expect(read.body.body.unread).toBe(1);
    const after = (await api('GET', '/mentions', staff)).body.body;
    expect(after.items.map((m: Json) => [m.note.id, m.read])).toEqual([
      [second.id, false],
      [first.id, true],
    ]);
    // Reading again changes nothing.
    expect((await api('PUT', `/enquiries/${a}/mentions/read`, staff)).body.body.unread).toBe(1);
    expect((await api('GET', '/mentions')).status).toBe(401);
    expect((await api('PUT', '/enquiries/not-an-id/mentions/read', staff)).status).toBe(404);
  });

  it('writes assigned, closed and reopened into the thread, with who did it', async () => {
    const id = await enquiry('+61491571003');
    const patch = (token: string, body: object) => api('PATCH', `/enquiries/${id}`, token, body);
    expect((await patch(owner, { assigned_to: staffId })).status).toBe(200);
    expect((await patch(staff, { status: 'closed' })).status).toBe(200);
    expect((await patch(owner, { status: 'open' })).status).toBe(200);
    expect((await patch(staff, { assigned_to: null })).status).toBe(200);
    expect((await patch(staff, { assigned_to: staffId })).status).toBe(200);
    // A change that changes nothing writes nothing.
    expect((await patch(staff, { assigned_to: staffId })).status).toBe(200);
    const ownerName = (await getMe(t, owner)).full_name;
    const staffName = (await getMe(t, staff)).full_name;
    const notes = (await api('GET', `/enquiries/${id}/notes`, staff)).body.body.items as Note[];
    const events = notes.filter((n) => n.kind === 'event');
    expect(events.map((n) => n.body)).toEqual([
      `Assigned to ${staffName} by ${ownerName}`,
      `Closed by ${staffName}`,
      `Reopened by ${ownerName}`,
      `Unassigned by ${staffName}`,
      `Assigned to ${staffName} by themselves`,
    ]);
    expect(events.map((n) => n.user_id)).toEqual([
      (await getMe(t, owner)).id,
      staffId,
      (await getMe(t, owner)).id,
      staffId,
      staffId,
    ]);
  });
});
