import { messages } from '@switchboard/db';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DEMO_LOGINS, getMe, type TestApp } from '../../test/helpers.ts';

describe('web and contact forms', () => {
  let t: TestApp;
  let owner: string;
  let webUrl: string;
  const path = (url: string) => new URL(url).pathname;
  const count = async () =>
    (await t.database.db.select({ n: sql<number>`count(*)::int` }).from(messages))[0]!.n;

  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL: 'https://switchboard.example.com' });
    owner = await t.login(DEMO_LOGINS.owner);
    const res = await t.request({
      method: 'GET',
      url: '/api/v1/business/mybusiness/web-form-webhook',
      token: owner,
    });
    expect(res.statusCode, res.body).toBe(200);
    webUrl = res.json().body.url;
  });
  afterAll(() => t.close());

  it('gives the owner a secret URL under PUBLIC_URL, the same each time, and refuses staff', async () => {
    expect(webUrl).toMatch(/^https:\/\/switchboard\.example\.com\/webhooks\/forms\/[\w-]{32}$/);
    const again = await t.request({
      method: 'GET',
      url: '/api/v1/business/mybusiness/web-form-webhook',
      token: owner,
    });
    expect(again.json().body.url).toBe(webUrl);
    const contact = await t.request({
      method: 'GET',
      url: '/api/v1/business/mybusiness/contact-form-webhook',
      token: owner,
    });
    expect(contact.json().body.url).not.toBe(webUrl);
    const staff = await t.login(DEMO_LOGINS.staff1);
    expect(
      (await t.request({ method: 'GET', url: '/api/v1/business/mybusiness/web-form-webhook', token: staff }))
        .statusCode,
    ).toBe(403);
  });

  it('tells the public contact page the business it writes to: name, logo and locations; an unknown token is 404', async () => {
    const res = await t.request({ method: 'GET', url: path(webUrl) });
    expect(res.statusCode).toBe(200);
    expect(res.json().body).toEqual({
      business_name: 'Harbourside Dental',
      logo: null,
      locations: [
        {
          id: expect.any(String),
          name: 'Harbourside Dental Docklands',
          address: '12 Harbour Esplanade, Docklands VIC 3008',
        },
        { id: expect.any(String), name: null, address: null },
      ],
    });
    const unknown = await t.request({
      method: 'GET',
      url: '/webhooks/forms/0123456789abcdef0123456789abcdef',
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('This form is not available.');
  });

  it('turns a JSON post into a web_form enquiry keeping extra fields, and continues it on the next post', async () => {
    const payload = {
      name: 'Dana Form',
      email: 'Dana@Example.com',
      phone: '0491 570 051',
      message: 'Need a quote',
      service: 'Implants',
      utm_source: 'google',
    };
    const res = await t.request({ method: 'POST', url: path(webUrl), payload });
    expect(res.statusCode, res.body).toBe(200);
    const list = (
      await t.request({ method: 'GET', url: '/api/v1/enquiries?channels=web_form', token: owner })
    ).json().body.items;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      channel: 'web_form',
      customer: { name: 'Dana Form', email: 'dana@example.com' },
      source: 'google',
    });
    const thread = (
      await t.request({ method: 'GET', url: `/api/v1/enquiries/${list[0].id}/messages`, token: owner })
    ).json().body.items;
    expect(thread[0]).toMatchObject({
      message: 'Need a quote',
      meta: { form: { service: 'Implants', utm_source: 'google' }, phone: '+61491570051' },
    });

    await t.request({
      method: 'POST',
      url: path(webUrl),
      payload: { email: 'dana@example.com', message: 'Any update?' },
    });
    const again = (
      await t.request({ method: 'GET', url: '/api/v1/enquiries?channels=web_form', token: owner })
    ).json().body.items;
    expect(again).toHaveLength(1);
    expect(again[0].last_message).toBe('Any update?');
  });

  it('accepts a form-encoded post from a website form and thanks or redirects the visitor', async () => {
    const thanks = await t.app.inject({
      method: 'POST',
      url: path(webUrl),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'name=Eli+Encoded&phone=%2B61491570052&message=Caf%C3%A9+booking',
    });
    expect(thanks.statusCode).toBe(200);
    expect(thanks.body).toContain('Thank you');
    const redirect = await t.app.inject({
      method: 'POST',
      url: path(webUrl),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'phone=0491570053&message=hi&_redirect=https%3A%2F%2Fharbourside.test%2Fthanks',
    });
    expect(redirect.statusCode).toBe(303);
    expect(redirect.headers.location).toBe('https://harbourside.test/thanks');
    const items = (
      await t.request({ method: 'GET', url: '/api/v1/enquiries?q=Caf%C3%A9', token: owner })
    ).json().body.items;
    expect(items[0]).toMatchObject({
      customer: { name: 'Eli Encoded', phone: '+61491570052' },
      last_message: 'Café booking',
    });
  });

  it('accepts but drops a submission with the honeypot filled', async () => {
    const before = await count();
    const res = await t.request({
      method: 'POST',
      url: path(webUrl),
      payload: { email: 'bot@spam.test', message: 'buy', _gotcha: 'x' },
    });
    expect(res.statusCode).toBe(200);
    expect(await count()).toBe(before);
  });

  it('answers an unknown token 404, missing contact details 422, bad fields 4xx, storing nothing', async () => {
    const before = await count();
    expect(
      (
        await t.request({
          method: 'POST',
          url: '/webhooks/forms/unknown-token-unknown-token',
          payload: { email: 'a@b.co' },
        })
      ).statusCode,
    ).toBe(404);
    const cases = [
      {
        payload: { name: 'No Contact', message: 'hello' },
        status: 422,
        match: /email address or a phone number/,
      },
      { payload: { email: 'not-an-email', message: 'x' }, status: 422, match: /not a valid email/ },
      { payload: { phone: '12', message: 'x' }, status: 422, match: /not a valid phone/ },
      {
        payload: { email: 'a@b.co', location_id: (await getMe(t, owner)).id },
        status: 422,
        match: /location/,
      },
      { payload: { email: 'a@b.co', message: 'x'.repeat(10_001) }, status: 400, match: /too long/ },
    ];
    for (const c of cases) {
      const res = await t.request({ method: 'POST', url: path(webUrl), payload: c.payload });
      expect(res.statusCode, JSON.stringify(c.payload).slice(0, 60)).toBe(c.status);
      expect(res.json().message).toMatch(c.match);
    }
    expect(await count()).toBe(before);
  });

  it('rotating the URL makes the old one stop working', async () => {
    const rotated = await t.request({
      method: 'POST',
      url: '/api/v1/business/mybusiness/web-form-webhook/rotate',
      token: owner,
    });
    const fresh = rotated.json().body.url;
    expect(fresh).not.toBe(webUrl);
    expect(
      (await t.request({ method: 'POST', url: path(webUrl), payload: { email: 'a@b.co' } })).statusCode,
    ).toBe(404);
    expect(
      (await t.request({ method: 'POST', url: path(fresh), payload: { email: 'a@b.co' } })).statusCode,
    ).toBe(200);
  });
});
