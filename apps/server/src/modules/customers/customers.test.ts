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
});
