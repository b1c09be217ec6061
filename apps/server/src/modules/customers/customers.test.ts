import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DEMO_LOGINS, inbound, selectedLocation, type TestApp } from '../../test/helpers.ts';

describe('customers', () => {
  let t: TestApp;
  let owner: string;
  let north: string;
  let location: string;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.login(DEMO_LOGINS.owner);
    north = await t.login(DEMO_LOGINS.northsideOwner);
    location = await selectedLocation(t, owner);
  });
  afterAll(() => t.close());

  const get = (url: string, token = owner) => t.request({ method: 'GET', url: `/api/v1${url}`, token });

  it('shows a customer with where they first came from and every enquiry of theirs, newest first', async () => {
    const sms = await inbound(t, owner, {
      location_id: location,
      from: { phone: '+61491570401' },
      message: 'Do you do implants?',
      source: 'google',
      medium: 'cpc',
      campaign: 'implants',
    });
    await inbound(t, owner, {
      channel: 'whatsapp',
      location_id: location,
      from: { phone: '+61491570401' },
      message: 'Also on WhatsApp',
    });
    const enquiry = (await get(`/enquiries/${sms.enquiry_id}`)).json().body;

    const res = await get(`/customers/${enquiry.customer_id}`);
    expect(res.statusCode).toBe(200);
    const c = res.json().body;
    expect(c).toMatchObject({
      id: enquiry.customer_id,
      name: null,
      phone: '+61491570401',
      sms_opted_out: false,
      enquiry_count: 2,
      first_seen: { channel: 'sms', source: 'google', medium: 'cpc', campaign: 'implants' },
    });
    expect(
      c.enquiries.map((e: { channel: string; last_message: string }) => [e.channel, e.last_message]),
    ).toEqual([
      ['whatsapp', 'Also on WhatsApp'],
      ['sms', 'Do you do implants?'],
    ]);
    expect(c.enquiries[0].location_name).toBe('Harbourside Dental Docklands');

    // Searchable in the list, by any part of the number.
    const list = (await get('/customers?q=570401')).json().body;
    expect(list.items.map((i: { id: string; enquiry_count: number }) => [i.id, i.enquiry_count])).toEqual([
      [c.id, 2],
    ]);
  });

  it('names a bare number, refuses a clash or a customer with no way to reach them, and changes nothing then', async () => {
    const a = await inbound(t, owner, {
      location_id: location,
      from: { phone: '+61491570402' },
      message: 'Hi',
    });
    const b = await inbound(t, owner, {
      location_id: location,
      from: { phone: '+61491570403' },
      message: 'Hello',
    });
    const idOf = async (enquiryId: string) =>
      (await get(`/enquiries/${enquiryId}`)).json().body.customer_id as string;
    const [aId, bId] = [await idOf(a.enquiry_id), await idOf(b.enquiry_id)];
    const patch = (id: string, payload: object, token = owner) =>
      t.request({ method: 'PATCH', url: `/api/v1/customers/${id}`, token, payload });

    const named = await patch(aId, { name: 'Gina Lowe', email: 'gina@example.com' });
    expect(named.statusCode).toBe(200);
    expect(named.json().body).toMatchObject({ name: 'Gina Lowe', email: 'gina@example.com' });
    expect((await get(`/enquiries/${a.enquiry_id}`)).json().body.customer.name).toBe('Gina Lowe');

    const clash = await patch(bId, { phone: '0491 570 402' });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().message).toBe(
      'Another customer already has this phone number. Merge the two instead.',
    );
    const bad = await patch(bId, { phone: 'call me' });
    expect(bad.statusCode).toBe(422);
    const unreachable = await patch(bId, { phone: null });
    expect(unreachable.statusCode).toBe(422);
    expect((await get(`/customers/${bId}`)).json().body.phone).toBe('+61491570403');

    // Another business's owner finds nothing, and changes nothing.
    expect((await get(`/customers/${aId}`, north)).statusCode).toBe(404);
    expect((await patch(aId, { name: 'Not yours' }, north)).statusCode).toBe(404);
    expect((await get('/customers/not-a-uuid')).statusCode).toBe(404);
    expect((await get('/customers?q=Gina', north)).json().body.items).toEqual([]);
    expect((await get(`/customers/${aId}`)).json().body.name).toBe('Gina Lowe');
  });

  it('merges two records of one person: enquiries and messages move, details combine, the other is gone', async () => {
    const byPhone = await inbound(t, owner, {
      location_id: location,
      from: { phone: '+61491570404' },
      message: 'Text here',
    });
    const byEmail = await inbound(t, owner, {
      channel: 'email',
      location_id: location,
      from: { email: 'ray@example.com', name: 'Ray Mond' },
      message: 'Email here',
    });
    const idOf = async (enquiryId: string) =>
      (await get(`/enquiries/${enquiryId}`)).json().body.customer_id as string;
    const [keep, other] = [await idOf(byPhone.enquiry_id), await idOf(byEmail.enquiry_id)];

    // Each record has a note and a label: the merged one keeps both notes and both labels.
    const [vip, newbie] = await Promise.all(
      ['VIP merge', 'New merge'].map(async (name) => {
        const res = await t.request({
          method: 'POST',
          url: '/api/v1/labels',
          token: owner,
          payload: { name, colour: '#D4A017' },
        });
        expect(res.statusCode, res.body).toBe(200);
        return res.json().body.id as string;
      }),
    );
    for (const [id, label, body] of [
      [keep, vip, 'Prefers texts'],
      [other, newbie, 'Asked about whitening'],
    ] as const) {
      await t.request({
        method: 'PATCH',
        url: `/api/v1/customers/${id}`,
        token: owner,
        payload: { labels: [label] },
      });
      await t.request({
        method: 'POST',
        url: `/api/v1/customers/${id}/notes`,
        token: owner,
        payload: { body },
      });
    }

    const foreign = await t.request({
      method: 'POST',
      url: `/api/v1/customers/${keep}/merge`,
      token: north,
      payload: { other_id: other },
    });
    expect(foreign.statusCode).toBe(404);
    const self = await t.request({
      method: 'POST',
      url: `/api/v1/customers/${keep}/merge`,
      token: owner,
      payload: { other_id: keep },
    });
    expect(self.statusCode).toBe(422);

    const res = await t.request({
      method: 'POST',
      url: `/api/v1/customers/${keep}/merge`,
      token: owner,
      payload: { other_id: other },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().body).toMatchObject({
      id: keep,
      name: 'Ray Mond',
      phone: '+61491570404',
      email: 'ray@example.com',
      enquiry_count: 2,
    });
    expect(res.json().body.labels.sort()).toEqual([vip, newbie].sort());
    expect(
      res
        .json()
        .body.notes.map((n: { body: string }) => n.body)
        .sort(),
    ).toEqual(['Asked about whitening', 'Prefers texts']);
    expect((await get(`/customers/${other}`)).statusCode).toBe(404);
    expect((await get(`/enquiries/${byEmail.enquiry_id}`)).json().body.customer_id).toBe(keep);
    const messages = (await get(`/enquiries/${byEmail.enquiry_id}/messages`)).json().body.items;
    expect(messages.every((m: { customer_id: string }) => m.customer_id === keep)).toBe(true);

    // The person's next email finds the merged customer.
    const next = await inbound(t, owner, {
      channel: 'email',
      location_id: location,
      from: { email: 'ray@example.com' },
      message: 'Following up',
    });
    expect(next.enquiry_id).toBe(byEmail.enquiry_id);
  });

  it('keeps notes about a customer and their labels; only the writer or the owner deletes a note', async () => {
    const sms = await inbound(t, owner, {
      location_id: location,
      from: { phone: '+61491570405' },
      message: 'Hi again',
    });
    const id = (await get(`/enquiries/${sms.enquiry_id}`)).json().body.customer_id as string;
    const staff = await t.login(DEMO_LOGINS.staff1);
    const post = (payload: object, token = staff, customer = id) =>
      t.request({ method: 'POST', url: `/api/v1/customers/${customer}/notes`, token, payload });

    const added = await post({ body: '  Anxious about needles — book the long slot.  ' });
    expect(added.statusCode, added.body).toBe(200);
    const [note] = added.json().body.notes;
    expect(note).toMatchObject({ body: 'Anxious about needles — book the long slot.', author: 'Sam Nguyen' });
    await post({ body: 'Pays by card' }, owner);
    expect((await get(`/customers/${id}`)).json().body.notes.map((n: { body: string }) => n.body)).toEqual([
      'Pays by card',
      'Anxious about needles — book the long slot.',
    ]);

    // Bad input says what is wrong and adds nothing; another business cannot see or write.
    for (const [payload, status, text] of [
      [{ body: '   ' }, 400, 'Write the note first.'],
      [{ body: 'x'.repeat(5001) }, 400, 'at most 5000 characters'],
      [{ text: 'hi' }, 400, 'body'],
    ] as const) {
      const res = await post(payload);
      expect(res.statusCode).toBe(status);
      expect(res.body).toContain(text);
    }
    expect((await post({ body: 'Sneaky' }, north)).statusCode).toBe(404);
    expect((await get(`/customers/${id}`)).json().body.notes).toHaveLength(2);

    // A teammate cannot delete another's note; the writer and the owner can.
    const ownerNote = (await get(`/customers/${id}`)).json().body.notes[0].id as string;
    const del = (noteId: string, token: string) =>
      t.request({ method: 'DELETE', url: `/api/v1/customers/${id}/notes/${noteId}`, token });
    expect((await del(ownerNote, staff)).statusCode).toBe(403);
    expect((await del(note.id, north)).statusCode).toBe(404);
    expect((await del(note.id, staff)).statusCode).toBe(200);
    const left = await del(ownerNote, owner);
    expect(left.json().body.notes).toEqual([]);

    // Labels: the business's own only; deleting a label takes it off the customer.
    const label = (
      await t.request({
        method: 'POST',
        url: '/api/v1/labels',
        token: owner,
        payload: { name: 'Nervous patient', colour: '#7B3FE4' },
      })
    ).json().body.id as string;
    const patch = (payload: object, token = staff) =>
      t.request({ method: 'PATCH', url: `/api/v1/customers/${id}`, token, payload });
    expect((await patch({ labels: [label, label] })).json().body.labels).toEqual([label]);
    const northLabel = (
      await t.request({
        method: 'POST',
        url: '/api/v1/labels',
        token: north,
        payload: { name: 'Theirs', colour: '#C62828' },
      })
    ).json().body.id as string;
    const foreign = await patch({ labels: [label, northLabel] });
    expect(foreign.statusCode).toBe(422);
    expect((await get(`/customers/${id}`)).json().body.labels).toEqual([label]);
    await t.request({ method: 'DELETE', url: `/api/v1/labels/${label}`, token: owner });
    expect((await get(`/customers/${id}`)).json().body.labels).toEqual([]);
  });
});
