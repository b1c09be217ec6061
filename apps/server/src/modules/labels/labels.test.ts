import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DEMO_LOGINS, inbound, selectedLocation, type TestApp } from '../../test/helpers.ts';

describe('labels', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('lets the owner manage labels, staff put them on enquiries and filter by them, and keeps businesses apart', async () => {
    const owner = await t.login(DEMO_LOGINS.owner);
    const staff = await t.login(DEMO_LOGINS.staff1);
    const north = await t.login(DEMO_LOGINS.northsideOwner);
    const req = (
      method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH',
      url: string,
      token: string,
      payload?: object,
    ) => t.request({ method, url: `/api/v1${url}`, token, ...(payload ? { payload } : {}) });

    const urgent = await req('POST', '/labels', owner, { name: 'Urgent', colour: '#d4380d' });
    expect(urgent.statusCode, urgent.body).toBe(200);
    expect(urgent.json().body).toMatchObject({ name: 'Urgent', colour: '#D4380D' });
    const urgentId = urgent.json().body.id as string;
    const billing = (await req('POST', '/labels', owner, { name: 'Billing', colour: '#1E75FF' })).json().body
      .id as string;
    expect((await req('POST', '/labels', owner, { name: 'urgent', colour: '#000000' })).statusCode).toBe(409);
    expect((await req('POST', '/labels', owner, { name: 'Red', colour: 'red' })).statusCode).toBe(400);
    expect((await req('POST', '/labels', staff, { name: 'Mine', colour: '#000000' })).statusCode).toBe(403);
    expect(
      (await req('GET', '/labels', staff)).json().body.items.map((l: { name: string }) => l.name),
    ).toEqual(['Billing', 'Urgent']);

    const location = await selectedLocation(t, owner);
    const a = await inbound(t, owner, {
      location_id: location,
      from: { phone: '+61491570801' },
      message: 'Invoice wrong',
    });
    const b = await inbound(t, owner, {
      location_id: location,
      from: { phone: '+61491570802' },
      message: 'Tooth ache!',
    });
    const labelled = await req('PATCH', `/enquiries/${a.enquiry_id}`, staff, { labels: [billing, urgentId] });
    expect(labelled.statusCode, labelled.body).toBe(200);
    expect(labelled.json().body.labels.sort()).toEqual([billing, urgentId].sort());
    expect((await req('PATCH', `/enquiries/${b.enquiry_id}`, staff, { labels: [urgentId] })).statusCode).toBe(
      200,
    );

    const ids = async (label: string) =>
      (
        (await req('GET', `/enquiries?label=${label}&page_size=100`, staff)).json().body.items as {
          id: string;
        }[]
      ).map((e) => e.id);
    expect((await ids(urgentId)).sort()).toEqual([a.enquiry_id, b.enquiry_id].sort());
    expect(await ids(billing)).toEqual([a.enquiry_id]);

    // Another business's labels cannot be put on, seen, changed or deleted.
    const theirs = (await req('POST', '/labels', north, { name: 'Urgent', colour: '#000000' })).json().body
      .id as string;
    const foreign = await req('PATCH', `/enquiries/${a.enquiry_id}`, owner, { labels: [theirs] });
    expect(foreign.statusCode).toBe(422);
    expect(
      (await req('PUT', `/labels/${urgentId}`, north, { name: 'Mine now', colour: '#000000' })).statusCode,
    ).toBe(404);
    expect((await req('DELETE', `/labels/${urgentId}`, north)).statusCode).toBe(404);

    // Several at once: labelled, assigned and closed together; a stranger's id changes nothing.
    const c = await inbound(t, owner, {
      location_id: location,
      from: { phone: '+61491570803' },
      message: 'Third',
    });
    const bulk = await req('POST', '/enquiries/bulk', staff, {
      ids: [b.enquiry_id, c.enquiry_id],
      patch: { add_labels: [billing], status: 'closed' },
    });
    expect(bulk.statusCode, bulk.body).toBe(200);
    expect(
      bulk
        .json()
        .body.items.map((e: { status: string; labels: string[] }) => [e.status, e.labels.includes(billing)]),
    ).toEqual([
      ['closed', true],
      ['closed', true],
    ]);
    const theirEnquiry = await inbound(t, north, {
      location_id: await selectedLocation(t, north),
      from: { phone: '+61491570804' },
      message: 'Not yours',
    });
    const mixed = await req('POST', '/enquiries/bulk', owner, {
      ids: [a.enquiry_id, theirEnquiry.enquiry_id],
      patch: { status: 'closed' },
    });
    expect(mixed.statusCode).toBe(404);
    expect((await req('GET', `/enquiries/${a.enquiry_id}`, owner)).json().body.status).toBe('open');

    // Deleting a label takes it off every enquiry.
    expect((await req('DELETE', `/labels/${urgentId}`, owner)).statusCode).toBe(200);
    const after = (await req('GET', `/enquiries/${a.enquiry_id}`, staff)).json().body;
    expect(after.labels).toEqual([billing]);
    expect(await ids(urgentId)).toEqual([]);
  });
});
