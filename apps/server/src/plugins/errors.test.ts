import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { apiClient, createTestApp, DEMO_LOGINS, selectedLocation, type TestApp } from '../test/helpers.ts';
import { errorsPlugin } from './errors.ts';

describe('a refused request says what to fix, field by field', () => {
  let t: TestApp;
  let api: ReturnType<typeof apiClient>;
  let owner: string;
  let loc: string;

  beforeAll(async () => {
    t = await createTestApp();
    api = apiClient(t);
    owner = await t.login(DEMO_LOGINS.owner);
    loc = await selectedLocation(t, owner);
  });
  afterAll(() => t.close());

  const location = async () => (await api('GET', `/business/locations/${loc}`, owner)).body.body;

  it('names a review link without https:// under review_link, in the schema’s own words, and keeps the old link', async () => {
    const before = await location();
    const res = await api('PATCH', `/business/locations/${loc}/update-review-template`, owner, {
      review_link: 'g.page/r/harbourside/review',
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: 'validation_failed',
      message: 'Review link: Give the review link as an https:// address.',
      fields: { review_link: 'Give the review link as an https:// address.' },
    });
    expect((await location()).review_link).toBe(before.review_link);
  });

  it('names each bad field of a location once, and rewrites zod’s own wording for a person', async () => {
    const res = await api('PATCH', `/business/locations/${loc}`, owner, {
      name: '',
      phone_number: 'call me',
      precedence: 1.5,
    });
    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual({
      name: 'Please fill this in',
      phone_number: 'Please enter a valid phone number, such as +61 491 570 156 or 0491 570 156',
      precedence: 'Please enter a whole number',
    });
    expect(res.body.message).toBe(
      'Name: Please fill this in. Precedence: Please enter a whole number. Phone number: Please enter a valid phone number, such as +61 491 570 156 or 0491 570 156.',
    );
  });

  it('keys a bad amount on an invoice line by its row', async () => {
    const res = await api('POST', '/business/customer-invoices', owner, {
      customer_id: '0190a4f2-0000-7000-8000-000000000000',
      items: [{ description: 'Check-up', quantity: 0, unit_price_cents: 12.5, tax_rate: 10 }],
    });
    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual({
      'items.0.quantity': 'A quantity is more than 0.',
      'items.0.unit_price_cents': 'Give prices in whole minor units of the currency (cents).',
    });
    expect(res.body.message).toMatch(/^Quantity \(row 1\): A quantity is more than 0\. /);
  });

  it('names an invitation’s email, both when it is not an address and when that person is already in the team', async () => {
    const bad = await api('POST', '/business/members/invitations', owner, { email: 'sam at harbourside' });
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toEqual({ email: 'Please enter a valid email address' });
    const member = await api('POST', '/business/members/invitations', owner, { email: DEMO_LOGINS.staff2 });
    expect(member.status).toBe(409);
    expect(member.body).toMatchObject({
      code: 'conflict',
      fields: { email: `${DEMO_LOGINS.staff2} is already in your team.` },
    });
  });

  it('says which field cannot be sent, and where text that cannot be stored was', async () => {
    const unknown = await api('PATCH', `/business/locations/${loc}`, owner, { counters: 3 });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({
      code: 'validation_failed',
      message: 'counters cannot be set here.',
      fields: {},
    });
    const nul = await api('PATCH', `/business/locations/${loc}`, owner, { address: 'Dock\u0000lands' });
    expect(nul.status).toBe(400);
    expect(nul.body.fields).toEqual({ address: expect.stringMatching(/NUL/) });
  });
});

describe('a schema checked inside a handler', () => {
  const app = Fastify();
  beforeAll(async () => {
    await app.register(errorsPlugin);
    app.post('/by-hand', async (request) =>
      z.object({ website: z.url(), hours: z.array(z.number().max(24)) }).parse(request.body),
    );
    await app.ready();
  });
  afterAll(() => app.close());

  it('answers 400 with each field’s problem in plain words', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/by-hand',
      payload: { website: 'harbourside', hours: [9, 30] },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      code: 'validation_failed',
      message:
        'Website: Please enter a full web address starting with https://. Hours (row 2): Please enter 24 or less.',
      fields: {
        website: 'Please enter a full web address starting with https://',
        'hours.1': 'Please enter 24 or less',
      },
    });
  });
});
