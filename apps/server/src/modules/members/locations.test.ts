import type { ClientToServerEvents, ServerToClientEvents } from '@switchboard/shared';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeMailServer, fakeMailServer } from '../../channels/email/testing.ts';
import {
  apiClient,
  createTestApp,
  DEMO_LOGINS,
  eventually,
  getMe,
  inbound,
  type Json,
  listen,
  openSocket,
  type TestApp,
} from '../../test/helpers.ts';

type Client = Socket<ServerToClientEvents, ClientToServerEvents>;

describe('the locations a team member works at', () => {
  let t: TestApp;
  let url: string;
  let mail: FakeMailServer;
  let owner: string;
  let staff: string;
  let staffId: string;
  let first: string;
  let second: string;
  let northLocation: string;
  let atFirst: string;
  let atSecond: string;
  const clients: Client[] = [];
  const api = (...args: Parameters<ReturnType<typeof apiClient>>) => apiClient(t)(...args);
  const open = (token: string) => openSocket<Client>(url, token, clients as Socket[]);
  const ids = (items: Json[]) => items.map((i) => i.id as string);

  beforeAll(async () => {
    mail = await fakeMailServer();
    t = await createTestApp({ SMTP_URL: mail.url, PUBLIC_URL: 'https://switchboard.example.com' });
    url = await listen(t);
    owner = await t.login(DEMO_LOGINS.owner);
    staff = await t.login(DEMO_LOGINS.staff1);
    const me = await getMe(t, staff);
    staffId = me.id;
    [first, second] = me.businesses.find((b) => b.selected)!.locations.map((l) => l.id) as [string, string];
    const north = await getMe(t, await t.login(DEMO_LOGINS.northsideOwner));
    northLocation = north.businesses.find((b) => b.selected)!.locations[0]!.id;
    atFirst = (
      await inbound(t, owner, {
        location_id: first,
        from: { phone: '+61491570301', name: 'Fay First' },
        message: 'one',
      })
    ).enquiry_id;
    atSecond = (
      await inbound(t, owner, {
        location_id: second,
        from: { phone: '+61491570302', name: 'Sam Second' },
        message: 'two',
      })
    ).enquiry_id;
  });
  afterAll(async () => {
    for (const c of clients) c.disconnect();
    await t.close();
    await mail.stop();
  });

  it('lets only owners choose, and only among the business’s own locations', async () => {
    const put = (token: string, userId: string, body: unknown) =>
      api('PUT', `/business/members/${userId}/locations`, token, body);
    expect((await put(staff, staffId, { location_ids: [second] })).status).toBe(403);
    expect((await put(owner, staffId, { location_ids: [northLocation] })).status).toBe(404);
    expect((await put(owner, staffId, { location_ids: ['not-an-id'] })).status).toBe(404);
    const empty = await put(owner, staffId, { location_ids: [] });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toMatch(/at least one location/);
    expect((await put(owner, staffId, {})).status).toBe(400);
    expect((await put(owner, '00000000-0000-4000-8000-000000000000', { location_ids: null })).status).toBe(
      404,
    );
    const ownerId = (await getMe(t, owner)).id;
    const self = await put(owner, ownerId, { location_ids: [second] });
    expect(self.status).toBe(422);
    expect(self.body.message).toBe('Owners work at every location.');
    // None of the refusals changed anything.
    const members = await api('GET', '/business/members', owner);
    expect(members.body.body.items.find((m: Json) => m.user_id === staffId)).toMatchObject({
      all_locations: true,
      location_ids: [],
    });
  });

  it('shows a limited team member their locations only, everywhere, and the owner everything', async () => {
    const before = await open(staff);
    const told = new Promise<void>((resolve) => before.on('account.changed', () => resolve()));
    const dropped = new Promise<void>((resolve) => before.on('disconnect', () => resolve()));

    const set = await api('PUT', `/business/members/${staffId}/locations`, owner, { location_ids: [second] });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.body.items.find((m: Json) => m.user_id === staffId)).toMatchObject({
      all_locations: false,
      location_ids: [second],
    });
    // Screens open before the change hear of it and are let go, to come back into the rooms now allowed.
    await Promise.all([told, dropped]);

    // The same token: what it may see is read on every request.
    const me = await getMe(t, staff);
    const business = me.businesses.find((b) => b.selected)!;
    expect(business.locations.map((l) => l.id)).toEqual([second]);
    expect(business.locations[0]!.selected).toBe(true);

    const list = await api('GET', '/enquiries?status=open', staff);
    expect(ids(list.body.body.items)).toContain(atSecond);
    expect(ids(list.body.body.items)).not.toContain(atFirst);
    const all = await api('GET', '/enquiries?status=open&all_locations=true', staff);
    expect(ids(all.body.body.items)).toContain(atSecond);
    expect(ids(all.body.body.items)).not.toContain(atFirst);
    expect((await api('GET', `/enquiries?status=open&location_id=${first}`, staff)).status).toBe(404);
    expect((await api('GET', `/enquiries/${atFirst}`, staff)).status).toBe(404);
    expect((await api('GET', `/enquiries/${atFirst}/messages`, staff)).status).toBe(404);
    expect(
      (await api('POST', `/enquiries/${atFirst}/messages`, staff, { message: 'not mine to answer' })).status,
    ).toBe(404);
    expect((await api('GET', `/enquiries/${atSecond}`, staff)).status).toBe(200);
    const unread = await api('GET', '/enquiries/unread', staff);
    expect(unread.body.body.items.map((i: Json) => i.location_id)).toEqual([second]);
    const counts = await api('GET', '/enquiries/counts?all_locations=true', staff);
    const ownerCounts = await api('GET', '/enquiries/counts?all_locations=true', owner);
    expect(counts.body.body.unassigned_count_open).toBeLessThan(ownerCounts.body.body.unassigned_count_open);
    expect((await api('GET', `/business/locations/${first}`, staff)).status).toBe(404);
    expect(ids((await api('GET', '/business/locations', staff)).body.body.items)).toEqual([second]);
    expect(
      (await api('PUT', '/user/switch', staff, { business_id: business.id, location_id: first })).status,
    ).toBe(404);

    // Live updates: an enquiry at the first location is not heard; one at the second is.
    const after = await open(staff);
    const heard: string[] = [];
    after.on('enquiry.created', (e) => heard.push(e.id));
    const refused = await new Promise<Json>((resolve) =>
      after.emit('enquiry.open', atFirst, resolve as never),
    );
    expect(refused).toMatchObject({ ok: false });
    const hidden = await inbound(t, owner, {
      location_id: first,
      from: { phone: '+61491570303', name: 'Hid Den' },
      message: 'at the first',
    });
    const shown = await inbound(t, owner, {
      location_id: second,
      from: { phone: '+61491570304', name: 'Shaw Nn' },
      message: 'at the second',
    });
    await eventually(async () => heard.includes(shown.enquiry_id));
    expect(heard).not.toContain(hidden.enquiry_id);

    // The owner still sees everything.
    const ownerAll = await api('GET', '/enquiries?status=open&all_locations=true', owner);
    expect(ids(ownerAll.body.body.items)).toEqual(expect.arrayContaining([atFirst, atSecond]));

    // Every location again.
    await api('PUT', `/business/members/${staffId}/locations`, owner, { location_ids: null });
    expect((await api('GET', `/enquiries/${atFirst}`, staff)).status).toBe(200);
    expect((await getMe(t, staff)).businesses.find((b) => b.selected)!.locations).toHaveLength(2);
  });

  it('invites a team member to some locations, and they join working there', async () => {
    expect(
      (
        await api('POST', '/business/members/invitations', owner, {
          email: 'placed@example.com',
          location_ids: [northLocation],
        })
      ).status,
    ).toBe(404);
    const sent = await api('POST', '/business/members/invitations', owner, {
      email: 'placed@example.com',
      full_name: 'Pat Placed',
      location_ids: [first],
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const pending = await api('GET', '/business/members/invitations', owner);
    const names = (await getMe(t, owner)).businesses.find((b) => b.selected)!.locations.map((l) => l.name);
    expect(pending.body.body.items.find((i: Json) => i.email === 'placed@example.com')).toMatchObject({
      location_names: [names[0]],
    });
    const found = await eventually(async () =>
      mail.received.find((m) => m.rcpt_to.some((r) => r.toLowerCase() === 'placed@example.com')),
    );
    expect(found.email.text).toContain(`Locations: “${names[0]}”`);
    const secret = /\/signup\/invite\?secret=([\w-]+)/.exec(found.email.text ?? '')?.[1];
    const preview = await api('GET', `/business/invitations/${secret}`);
    expect(preview.body.body.location_names).toEqual([names[0]]);
    const joined = await api('POST', `/business/invitations/${secret}/accept`, undefined, {
      full_name: 'Pat Placed',
      password: 'long enough pw',
    });
    expect(joined.status, JSON.stringify(joined.body)).toBe(200);
    const me = await getMe(t, joined.body.body.token);
    expect(me.businesses.find((b) => b.selected)!.locations.map((l) => l.id)).toEqual([first]);
    expect((await api('GET', `/enquiries/${atSecond}`, joined.body.body.token)).status).toBe(404);
    expect((await api('GET', `/enquiries/${atFirst}`, joined.body.body.token)).status).toBe(200);

    // An owner is invited to every location, whatever is sent.
    const ownerInvite = await api('POST', '/business/members/invitations', owner, {
      email: 'co-owner@example.com',
      role: 'owner',
      location_ids: [first],
    });
    expect(ownerInvite.status).toBe(200);
    const again = await api('GET', '/business/members/invitations', owner);
    expect(
      again.body.body.items.find((i: Json) => i.email === 'co-owner@example.com').location_names,
    ).toBeNull();
  });
});
