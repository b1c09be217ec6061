import type { Note, StaffNotification } from '@switchboard/shared';
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

describe('private notes', () => {
  let t: TestApp;
  let url: string;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    t = await createTestApp();
    url = await listen(t);
  });
  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await t.close();
  });

  it('keeps a note in the thread for the team only, tells the mentioned teammate, and refuses strangers', async () => {
    const owner = await t.login(DEMO_LOGINS.owner);
    const staff = await t.login(DEMO_LOGINS.staff1);
    const staffId = (await getMe(t, staff)).id;
    const location = await selectedLocation(t, owner);
    const { enquiry_id } = await inbound(t, owner, {
      location_id: location,
      from: { phone: '+61491570601', name: 'Nora Note' },
      message: 'Can I bring my dog?',
    });

    const socket = await openSocket(url, staff, sockets);
    const told = new Promise<StaffNotification>((resolve) => socket.once('notification', resolve));
    const seen = new Promise<Note>((resolve) => socket.once('note.created', resolve));
    const res = await t.request({
      method: 'POST',
      url: `/api/v1/enquiries/${enquiry_id}/notes`,
      token: owner,
      payload: { body: '@Sam Nguyen can you check the pet policy?', mentions: [staffId] },
    });
    expect(res.statusCode, res.body).toBe(200);
    const note = res.json().body as Note;
    expect(note).toMatchObject({
      body: '@Sam Nguyen can you check the pet policy?',
      mentions: [staffId],
      author: { full_name: 'Olivia Harbour' },
    });
    expect((await seen).id).toBe(note.id);
    expect(await told).toEqual({
      kind: 'mention',
      enquiry_id,
      location_id: location,
      title: 'Olivia Harbour mentioned you',
      body: 'In the conversation with Nora Note: “@Sam Nguyen can you check the pet policy?”',
    });

    // Listed with the enquiry, and never a message (nothing is sent to the customer).
    const notes = (
      await t.request({ method: 'GET', url: `/api/v1/enquiries/${enquiry_id}/notes`, token: staff })
    ).json().body.items as Note[];
    expect(notes.map((n) => n.id)).toEqual([note.id]);
    const thread = (
      await t.request({ method: 'GET', url: `/api/v1/enquiries/${enquiry_id}/messages`, token: owner })
    ).json().body.items as { message: string }[];
    expect(thread.map((m) => m.message)).toEqual(['Can I bring my dog?']);

    // Bad input changes nothing: an empty note, a mention of someone outside the business.
    const north = await t.login(DEMO_LOGINS.northsideOwner);
    const northId = (await getMe(t, north)).id;
    const empty = await t.request({
      method: 'POST',
      url: `/api/v1/enquiries/${enquiry_id}/notes`,
      token: owner,
      payload: { body: '  ' },
    });
    expect(empty.statusCode).toBe(400);
    const stranger = await t.request({
      method: 'POST',
      url: `/api/v1/enquiries/${enquiry_id}/notes`,
      token: owner,
      payload: { body: 'Hi', mentions: [northId] },
    });
    expect(stranger.statusCode).toBe(422);
    expect(stranger.json().message).toBe('A mentioned person is not a member of this business.');
    // Another business sees nothing and adds nothing.
    expect(
      (await t.request({ method: 'GET', url: `/api/v1/enquiries/${enquiry_id}/notes`, token: north }))
        .statusCode,
    ).toBe(404);
    expect(
      (
        await t.request({
          method: 'POST',
          url: `/api/v1/enquiries/${enquiry_id}/notes`,
          token: north,
          payload: { body: 'x' },
        })
      ).statusCode,
    ).toBe(404);
    const after = (
      await t.request({ method: 'GET', url: `/api/v1/enquiries/${enquiry_id}/notes`, token: owner })
    ).json().body.items as Note[];
    expect(after).toHaveLength(1);
  });
});
