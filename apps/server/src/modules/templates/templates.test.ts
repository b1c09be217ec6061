import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  DEMO_LOGINS,
  getMe,
  inbound,
  selectedLocation,
  type TestApp,
} from '../../test/helpers.ts';
import { templatesForEnquiry } from './service.ts';

describe('message templates', () => {
  let t: TestApp;
  let owner: string;
  let staff: string;
  let loc: string;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.login(DEMO_LOGINS.owner);
    staff = await t.login(DEMO_LOGINS.staff1);
    loc = await selectedLocation(t, owner);
  });
  afterAll(() => t.close());

  it('refuses a template naming a placeholder that is not ours, and stores nothing', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/templates',
      token: owner,
      payload: { name: 'Typo', body: 'Hi {firstname}, from {business_name} {{ last_name }}' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe(
      '{firstname}, {last_name} are not placeholders Switchboard fills in. Use {first_name}, {business_name}, {business_day}, {location_name}.',
    );
    const list = (await t.request({ method: 'GET', url: '/api/v1/templates', token: owner })).json().body
      .items;
    expect(list.map((i: { name: string }) => i.name)).not.toContain('Typo');
  });

  it('renders first_name, business_name, location_name and business_day for the enquiry', async () => {
    const created = await t.request({
      method: 'POST',
      url: '/api/v1/templates',
      token: owner,
      payload: {
        name: 'Follow-up',
        body: 'Hi {first_name}, {business_name} at {location_name} will call you on {business_day}.',
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    const { enquiry_id } = await inbound(t, owner, {
      location_id: loc,
      from: { phone: '+61491570031', name: 'Robin Banks' },
      message: 'Call me?',
    });
    const res = await t.request({
      method: 'GET',
      url: `/api/v1/enquiries/${enquiry_id}/templates`,
      token: staff,
    });
    const item = res.json().body.items.find((i: { name: string }) => i.name === 'Follow-up');
    expect(item.rendered).toMatch(
      /^Hi Robin, Harbourside Dental at Harbourside Dental Docklands will call you on (Monday|Tuesday|Wednesday|Thursday|Friday)\.$/,
    );
  });

  it('fills location_name with the business name for a location without a name', async () => {
    const me = (await t.request({ method: 'GET', url: '/api/v1/user/me', token: owner })).json().body as {
      businesses: { selected: boolean; locations: { id: string; name: string | null }[] }[];
    };
    const unnamed = me.businesses.find((b) => b.selected)!.locations.find((l) => !l.name)!;
    const { enquiry_id } = await inbound(t, owner, {
      location_id: unnamed.id,
      from: { phone: '+61491570033', name: 'Una Named' },
      message: 'Booked?',
    });
    const res = await t.request({
      method: 'GET',
      url: `/api/v1/enquiries/${enquiry_id}/templates`,
      token: staff,
    });
    const item = res.json().body.items.find((i: { name: string }) => i.name === 'Booking confirmed');
    expect(item.rendered).toBe(
      'Hi Una, your appointment at Harbourside Dental is confirmed. Reply here if anything changes.',
    );
  });

  it('names Monday as the next business day on a Friday in the business timezone', async () => {
    const { enquiry_id } = await inbound(t, owner, {
      location_id: loc,
      from: { phone: '+61491570032', name: 'Fri Day' },
      message: 'x',
    });
    // Friday 21 Nov 2025, 10:00 in Melbourne.
    const req = { headers: { authorization: `Bearer ${owner}` } };
    await t.app.authenticate(req as never, { header: () => {} } as never);
    const items = await templatesForEnquiry(
      { db: t.database.db, actor: (req as unknown as { actor: never }).actor },
      enquiry_id,
      new Date('2025-11-20T23:00:00Z'),
    );
    expect(items.find((i) => i.name === 'Follow-up')!.rendered).toContain('call you on Monday.');
  });

  it('lets only the owner manage templates, hides other businesses, and refuses bad input', async () => {
    const denied = await t.request({
      method: 'POST',
      url: '/api/v1/templates',
      token: staff,
      payload: { name: 'x', body: 'y' },
    });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toMatch(/Only the business owner/);
    const bad = await t.request({
      method: 'POST',
      url: '/api/v1/templates',
      token: owner,
      payload: { name: '', body: 'y' },
    });
    expect(bad.statusCode).toBe(400);
    const north = await t.login(DEMO_LOGINS.northsideOwner);
    const theirs = (await t.request({ method: 'GET', url: '/api/v1/templates', token: north })).json().body
      .items;
    expect(theirs.map((i: { name: string }) => i.name)).toEqual(['On our way']);
    const before = (await t.request({ method: 'GET', url: '/api/v1/templates', token: owner })).json().body
      .items;
    const mine = before.find((i: { name: string }) => i.name === 'Follow-up');
    const other = await t.request({ method: 'DELETE', url: `/api/v1/templates/${mine.id}`, token: north });
    expect(other.statusCode).toBe(404);
    const foreignLocation = await t.request({
      method: 'PUT',
      url: `/api/v1/templates/${mine.id}`,
      token: north,
      payload: { location_id: loc },
    });
    expect(foreignLocation.statusCode).toBe(404);
    expect(
      (await t.request({ method: 'GET', url: '/api/v1/templates', token: owner })).json().body.items,
    ).toEqual(before);
  });

  it('takes a name of up to 100 and a body of up to 5000 characters, trimmed, and nothing blank', async () => {
    const post = (payload: Record<string, unknown>) =>
      t.request({ method: 'POST', url: '/api/v1/templates', token: owner, payload });
    const longest = await post({ name: `  ${'n'.repeat(100)}  `, body: ` ${'b'.repeat(5000)} ` });
    expect(longest.statusCode, longest.body).toBe(200);
    expect(longest.json().body).toMatchObject({
      name: 'n'.repeat(100),
      body: 'b'.repeat(5000),
      location_id: null,
    });
    expect((await post({ name: 'n'.repeat(101), body: 'b' })).statusCode).toBe(400);
    expect((await post({ name: 'n', body: 'b'.repeat(5001) })).statusCode).toBe(400);
    expect((await post({ name: 'n', body: '   ' })).statusCode).toBe(400);
    expect((await post({ name: 'n' })).statusCode).toBe(400);
    const id = longest.json().body.id;
    const empty = await t.request({
      method: 'PUT',
      url: `/api/v1/templates/${id}`,
      token: owner,
      payload: {},
    });
    expect(empty.statusCode).toBe(400);
    const removed = await t.request({ method: 'DELETE', url: `/api/v1/templates/${id}`, token: owner });
    expect(removed.statusCode).toBe(200);
  });

  it('moves a template to one location and back to all; staff see every template but cannot change one', async () => {
    const locations = (await getMe(t, owner)).businesses.find((b) => b.selected)?.locations ?? [];
    const other = locations.find((l) => l.id !== loc)?.id;
    if (!other) throw new Error('The demo business has no second location');
    const created = await t.request({
      method: 'POST',
      url: '/api/v1/templates',
      token: owner,
      payload: { name: 'Parking', body: 'Park behind {location_name}.', location_id: other },
    });
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json().body.id as string;
    const names = async (query: string, token = owner) =>
      (await t.request({ method: 'GET', url: `/api/v1/templates${query}`, token }))
        .json()
        .body.items.map((i: { name: string }) => i.name) as string[];
    expect(await names(`?location_id=${other}`)).toContain('Parking');
    expect(await names(`?location_id=${loc}`)).not.toContain('Parking');
    // Staff are not limited to their own location: the settings page lists the business's templates.
    const staffView = (await t.request({ method: 'GET', url: '/api/v1/templates', token: staff })).json().body
      .items;
    expect(staffView.find((i: { id: string }) => i.id === id)).toMatchObject({ location_id: other });

    const edit = await t.request({
      method: 'PUT',
      url: `/api/v1/templates/${id}`,
      token: staff,
      payload: { name: 'Staff edit' },
    });
    expect(edit.statusCode).toBe(403);
    const drop = await t.request({ method: 'DELETE', url: `/api/v1/templates/${id}`, token: staff });
    expect(drop.statusCode).toBe(403);

    const everywhere = await t.request({
      method: 'PUT',
      url: `/api/v1/templates/${id}`,
      token: owner,
      payload: { location_id: null },
    });
    expect(everywhere.statusCode, everywhere.body).toBe(200);
    expect(everywhere.json().body).toMatchObject({ name: 'Parking', location_id: null });
    expect(await names(`?location_id=${loc}`)).toContain('Parking');
  });
});
