import type { ClientToServerEvents, ServerToClientEvents } from '@switchboard/shared';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  DEMO_LOGINS,
  eventually,
  inbound,
  listen,
  openSocket,
  selectedLocation,
  type TestApp,
} from '../test/helpers.ts';

type Client = Socket<ServerToClientEvents, ClientToServerEvents>;

describe('real time', () => {
  let t: TestApp;
  let url: string;
  let owner: string;
  let loc: string;
  const clients: Client[] = [];

  const open = (token: string | undefined) => openSocket<Client>(url, token, clients as Socket[]);

  /** Collects every event of a kind a socket receives. */
  const record = <E extends keyof ServerToClientEvents>(socket: Client, event: E) => {
    const seen: Parameters<ServerToClientEvents[E]>[0][] = [];
    socket.on(event, ((payload: Parameters<ServerToClientEvents[E]>[0]) => seen.push(payload)) as never);
    return seen;
  };
  /** Until a socket has received what `check` looks for. */
  const waitFor = (check: () => boolean, ms = 5000) => eventually(async () => check(), ms);

  beforeAll(async () => {
    t = await createTestApp();
    url = await listen(t);
    owner = await t.login(DEMO_LOGINS.owner);
    loc = await selectedLocation(t, owner);
  });
  afterAll(async () => {
    for (const c of clients) c.disconnect();
    await t.close();
  });

  it('delivers a new enquiry, its message and the counters to staff of the location, and to nobody else', async () => {
    const staff = await open(await t.login(DEMO_LOGINS.staff1));
    const other = await open(await t.login(DEMO_LOGINS.northsideOwner));
    const created = record(staff, 'enquiry.created');
    const messagesSeen = record(staff, 'message.created');
    const counts = record(staff, 'counts.updated');
    const leaked = [
      record(other, 'enquiry.created'),
      record(other, 'message.created'),
      record(other, 'counts.updated'),
    ];

    const { enquiry_id } = await inbound(t, owner, {
      location_id: loc,
      from: { phone: '+61491570021', name: 'Live Larry' },
      message: 'Anyone there?',
    });
    await waitFor(() => created.length > 0 && messagesSeen.length > 0 && counts.length > 0);
    expect(created[0]).toMatchObject({
      id: enquiry_id,
      customer: { name: 'Live Larry' },
      last_message: 'Anyone there?',
    });
    expect(messagesSeen[0]).toMatchObject({ enquiry_id, message: 'Anyone there?', direction: 'in' });
    expect(counts[0]).toMatchObject({ location_id: loc, unassigned_count_open: 1 });
    // A barrier instead of a sleep: the other business's own message reaches its socket after anything the
    // server sent it before, so once it is there a leak would have arrived too.
    const north = await t.login(DEMO_LOGINS.northsideOwner);
    await inbound(t, north, {
      location_id: await selectedLocation(t, north),
      from: { phone: '+61491570099', name: 'Barrier Bo' },
      message: 'barrier',
    });
    await waitFor(() => leaked[1]!.length > 0);
    const ours = (e: unknown) => JSON.stringify(e).includes(enquiry_id) || JSON.stringify(e).includes(loc);
    expect(leaked.map((l) => l.filter(ours).length)).toEqual([0, 0, 0]);
    expect(leaked[1]!.map((m) => (m as { message: string }).message)).toEqual(['barrier']);
  });

  it('broadcasts a reply and each status change to the other staff', async () => {
    const watcher = await open(await t.login(DEMO_LOGINS.staff2));
    const created = record(watcher, 'message.created');
    const updated = record(watcher, 'message.updated');
    const { enquiry_id } = await inbound(t, owner, {
      location_id: loc,
      from: { phone: '+61491570022' },
      message: 'Hello?',
    });
    const res = await t.request({
      method: 'POST',
      url: `/api/v1/enquiries/${enquiry_id}/messages`,
      token: owner,
      payload: { message: 'Hi there', client_id: 'opt-1' },
    });
    const id = res.json().body.id;
    await waitFor(() => updated.some((m) => m.id === id && m.status === 'delivered'), 8000);
    expect(created.find((m) => m.id === id)).toMatchObject({ status: 'queued', client_id: 'opt-1' });
    expect(updated.filter((m) => m.id === id).map((m) => m.status)).toEqual(['sent', 'delivered']);
  });

  it('shows who else has an enquiry open and who is typing', async () => {
    const { enquiry_id } = await inbound(t, owner, {
      location_id: loc,
      from: { phone: '+61491570023' },
      message: 'Question',
    });
    const a = await open(await t.login(DEMO_LOGINS.staff1));
    const b = await open(await t.login(DEMO_LOGINS.staff2));
    const viewersSeenByA = record(a, 'viewing');
    const typingSeenByA = record(a, 'typing');
    expect(await a.emitWithAck('enquiry.open', enquiry_id)).toEqual({ ok: true });
    expect(await b.emitWithAck('enquiry.open', enquiry_id)).toEqual({ ok: true });
    await waitFor(() => viewersSeenByA.some((v) => v.viewers.length === 2));
    expect(
      viewersSeenByA
        .at(-1)!
        .viewers.map((v) => v.full_name)
        .sort(),
    ).toEqual(['Priya Shah', 'Sam Nguyen']);
    b.emit('typing', { enquiry_id, typing: true });
    await waitFor(() => typingSeenByA.length > 0);
    expect(typingSeenByA[0]).toMatchObject({ enquiry_id, full_name: 'Priya Shah', typing: true });
    b.disconnect();
    await waitFor(() => viewersSeenByA.at(-1)!.viewers.length === 1);

    const north = await open(await t.login(DEMO_LOGINS.northsideOwner));
    expect(await north.emitWithAck('enquiry.open', enquiry_id)).toEqual({
      ok: false,
      message: 'Enquiry not found!',
    });
  });

  it('refuses a missing, forged or revoked token, and drops sockets of a session that logs out', async () => {
    await expect(open('not-a-token')).rejects.toThrow(/session has ended/);
    await expect(open(undefined)).rejects.toThrow(/log in/);

    const token = await t.login(DEMO_LOGINS.staff1);
    const socket = await open(token);
    const gone = new Promise<string>((resolve) => socket.on('disconnect', resolve));
    await t.request({ method: 'PUT', url: '/api/v1/user/logout', token });
    expect(await gone).toBe('io server disconnect');
    await expect(open(token)).rejects.toThrow(/session has ended/);
  });

  it("tells the business's screens when its labels change, and no other business", async () => {
    const staff = await open(await t.login(DEMO_LOGINS.staff1));
    const north = await t.login(DEMO_LOGINS.northsideOwner);
    const other = await open(north);
    const seen = record(staff, 'labels.changed');
    const leaked = record(other, 'labels.changed');
    const make = (token: string, name: string) =>
      t.request({ method: 'POST', url: '/api/v1/labels', token, payload: { name, colour: '#1E75FF' } });

    expect((await make(owner, 'Live label')).statusCode).toBe(200);
    await waitFor(() => seen.length === 1);
    // Refused (the name is taken): nothing changed, nothing said.
    expect((await make(owner, 'Live label')).statusCode).toBe(409);
    // The other business's own change is the barrier: once it has arrived, a leak would have too.
    expect((await make(north, 'North label')).statusCode).toBe(200);
    await waitFor(() => leaked.length === 1);
    expect(seen).toHaveLength(1);
    expect(leaked).toHaveLength(1);
  });
});
