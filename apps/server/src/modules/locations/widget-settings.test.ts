import { randomUUID } from 'node:crypto';
import { auditLog, locations } from '@switchboard/db';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DEMO_LOGINS, selectedLocation, type TestApp } from '../../test/helpers.ts';

const FIELDS = {
  name: { ask: true, required: true },
  phone: { ask: true, required: true },
  email: { ask: false, required: false },
};

describe('widget settings per location', () => {
  let t: TestApp;
  let owner: string;
  let staff: string;
  let otherOwner: string;
  let loc: string;
  let otherLoc: string;

  const get = (id: string, token = owner) =>
    t.request({ method: 'GET', url: `/api/v1/business/locations/${id}/widget`, token });
  const put = (id: string, payload: unknown, token = owner) =>
    t.request({
      method: 'PUT',
      url: `/api/v1/business/locations/${id}/widget`,
      token,
      payload: payload as object,
    });
  const publicConfig = async (id: string) =>
    (await t.request({ method: 'GET', url: `/widget-api/locations/${id}/config` })).json();
  const stored = async (id: string) =>
    (await t.database.db.select().from(locations).where(eq(locations.id, id)))[0]!.widget_settings;

  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL: 'https://chat.example.com' });
    owner = await t.login(DEMO_LOGINS.owner);
    staff = await t.login(DEMO_LOGINS.staff1);
    otherOwner = await t.login(DEMO_LOGINS.northsideOwner);
    loc = await selectedLocation(t, owner);
    otherLoc = await selectedLocation(t, otherOwner);
  });
  afterAll(() => t.close());

  it('shows the defaults and the snippet to anyone in the business', async () => {
    for (const token of [owner, staff]) {
      const res = await get(loc, token);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json().body;
      expect(body).toMatchObject({
        location_id: loc,
        color: '#1E75FF',
        greeting_is_default: true,
        fields: {
          name: { ask: true, required: true },
          phone: { ask: true, required: false },
          email: { ask: true, required: false },
        },
        script_url: 'https://chat.example.com/widget.js',
        chat_url: `https://chat.example.com/widget?location=${loc}`,
        snippet: `<script src="https://chat.example.com/widget.js" data-location="${loc}" async></script>`,
      });
      expect(body.greeting).toBe(body.default_greeting);
      expect(body.default_greeting).toBe("Hi! Ask us anything — we'll reply here.");
    }
  });

  it('titles the chat with the business’s name, naming the location under it only when there are several', async () => {
    const body = (await get(loc)).json().body;
    expect(body).toMatchObject({
      title: 'Harbourside Dental',
      title_is_default: true,
      default_title: 'Harbourside Dental',
      subtitle: 'Harbourside Dental Docklands',
      greeting: "Hi! Ask us anything — we'll reply here.",
    });
    expect(await publicConfig(loc)).toMatchObject({
      title: 'Harbourside Dental',
      subtitle: 'Harbourside Dental Docklands',
      greeting: "Hi! Ask us anything — we'll reply here.",
    });
    // Northside has one location: nothing to tell apart, so no subtitle.
    const single = (await get(otherLoc, otherOwner)).json().body;
    expect(single).toMatchObject({ title: 'Northside Plumbing', subtitle: null });
    expect(await publicConfig(otherLoc)).toMatchObject({ title: 'Northside Plumbing', subtitle: null });
  });

  it('saves the owner’s title, which the widget shows, and goes back to the business’s name when cleared', async () => {
    const saved = await put(loc, {
      title: '  Harbourside Smiles  ',
      color: '#1E75FF',
      greeting: null,
      fields: FIELDS,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().body).toMatchObject({
      title: 'Harbourside Smiles',
      title_is_default: false,
      default_title: 'Harbourside Dental',
    });
    expect(await publicConfig(loc)).toMatchObject({ title: 'Harbourside Smiles' });
    expect((await get(loc, staff)).json().body.title).toBe('Harbourside Smiles');

    for (const title of [null, '   ', undefined]) {
      const res = await put(loc, { title, color: '#1E75FF', greeting: null, fields: FIELDS });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().body).toMatchObject({ title: 'Harbourside Dental', title_is_default: true });
      expect(await stored(loc)).not.toHaveProperty('title');
    }
  });

  it('saves the owner’s colour, greeting and pre-chat fields, which the widget then uses', async () => {
    const res = await put(loc, { color: '#0a7f5a', greeting: '  G’day! Ask us anything.  ', fields: FIELDS });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().body).toMatchObject({
      color: '#0A7F5A',
      greeting: 'G’day! Ask us anything.',
      greeting_is_default: false,
      fields: FIELDS,
    });
    expect(await publicConfig(loc)).toMatchObject({
      color: '#0A7F5A',
      greeting: 'G’day! Ask us anything.',
      fields: FIELDS,
    });
    expect((await get(loc, staff)).json().body.color).toBe('#0A7F5A');

    // The widget now requires a phone number and drops an email it no longer asks for.
    const noPhone = await t.request({
      method: 'POST',
      url: `/widget-api/locations/${loc}/sessions`,
      payload: { name: 'Vera', email: 'vera@example.com' },
    });
    expect(noPhone.statusCode).toBe(400);
    expect(noPhone.json().message).toBe('Please enter your phone number.');

    const audits = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'location.widget_settings'), eq(auditLog.target, loc)));
    expect(audits.map((a) => a.detail)).toContainEqual(expect.objectContaining({ color: '#0A7F5A' }));
  });

  it('goes back to the default greeting when it is cleared', async () => {
    for (const greeting of [null, '   ']) {
      const res = await put(loc, { color: '#1E75FF', greeting, fields: FIELDS });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json().body;
      expect(body.greeting_is_default).toBe(true);
      expect(body.greeting).toBe(body.default_greeting);
      expect(await stored(loc)).not.toHaveProperty('greeting');
    }
  });

  it('refuses bad settings with a message and changes nothing', async () => {
    const before = await stored(loc);
    const cases: [unknown, number, string][] = [
      [{ color: 'blue', greeting: null, fields: FIELDS }, 400, 'hex code'],
      [{ color: '#12345', greeting: null, fields: FIELDS }, 400, 'hex code'],
      [{ color: '#123456', greeting: 'x'.repeat(501), fields: FIELDS }, 400, 'at most 500'],
      [
        { title: 'x'.repeat(61), color: '#123456', greeting: null, fields: FIELDS },
        400,
        'The title can be at most 60 characters.',
      ],
      [{ title: 42, color: '#123456', greeting: null, fields: FIELDS }, 400, 'Title'],
      [{ color: '#123456', greeting: null, fields: { name: FIELDS.name } }, 400, ''],
      [{ color: '#123456', greeting: null, fields: FIELDS, script: '<b>' }, 400, ''],
      [
        { color: '#123456', greeting: null, fields: { ...FIELDS, email: { ask: false, required: true } } },
        422,
        'The email address cannot be required when the form does not ask for it.',
      ],
    ];
    for (const [payload, status, message] of cases) {
      const res = await put(loc, payload);
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json().message).toContain(message);
    }
    expect(await stored(loc)).toEqual(before);
  });

  it('lets only the owner change them, and hides other businesses’ locations', async () => {
    const before = await stored(loc);
    const denied = await put(loc, { title: 'Ours', color: '#000000', greeting: null, fields: FIELDS }, staff);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBe('Only the business owner can change the chat widget.');

    for (const id of [otherLoc, randomUUID(), 'nope']) {
      expect((await get(id)).statusCode).toBe(404);
      expect(
        (await put(id, { title: 'Ours', color: '#000000', greeting: null, fields: FIELDS })).statusCode,
      ).toBe(404);
    }
    expect((await get(loc, otherOwner)).statusCode).toBe(404);
    expect(await stored(loc)).toEqual(before);
    expect(await stored(otherLoc)).toBeNull();
    expect(
      (await t.request({ method: 'GET', url: `/api/v1/business/locations/${loc}/widget` })).statusCode,
    ).toBe(401);
  });
});
