import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DEMO_LOGINS, type TestApp } from '../../test/helpers.ts';

type Call = { method: string; path: string; query: URLSearchParams; body: URLSearchParams; auth?: string };

/** Google's OAuth token endpoint and the Business Profile account and location lists, on loopback. */
class FakeGoogle {
  calls: Call[] = [];
  revoked = false;
  private server!: Server;
  url = '';
  async start() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const u = new URL(req.url ?? '/', 'http://x');
        const call = {
          method: req.method ?? '',
          path: u.pathname,
          query: u.searchParams,
          body: new URLSearchParams(Buffer.concat(chunks).toString()),
          auth: req.headers.authorization,
        };
        this.calls.push(call);
        res.setHeader('content-type', 'application/json');
        const send = (status: number, body: unknown) => res.writeHead(status).end(JSON.stringify(body));
        if (u.pathname === '/token') {
          if (call.body.get('grant_type') === 'authorization_code')
            return call.body.get('code') === 'good-code'
              ? send(200, { access_token: 'at-1', refresh_token: 'rt-1', expires_in: 3599 })
              : send(400, { error: 'invalid_grant', error_description: 'Bad Request' });
          if (this.revoked)
            return send(400, {
              error: 'invalid_grant',
              error_description: 'Token has been expired or revoked.',
            });
          return call.body.get('refresh_token') === 'rt-1'
            ? send(200, { access_token: 'at-2', expires_in: 3599 })
            : send(400, { error: 'invalid_grant' });
        }
        if (call.auth !== 'Bearer at-2')
          return send(401, {
            error: { code: 401, message: 'Request had invalid authentication credentials.' },
          });
        if (u.pathname === '/v1/accounts')
          return send(200, { accounts: [{ name: 'accounts/111', accountName: 'Harbourside' }] });
        if (u.pathname === '/v1/accounts/111/locations') {
          if (!u.searchParams.get('pageToken'))
            return send(200, {
              locations: [
                {
                  name: 'locations/1',
                  title: 'Harbourside Dental Docklands',
                  storefrontAddress: {
                    addressLines: ['12 Harbour Esplanade'],
                    locality: 'Docklands',
                    administrativeArea: 'VIC',
                    postalCode: '3008',
                  },
                  metadata: { placeId: 'ChIJdocklands', newReviewUri: 'https://g.page/r/docklands/review' },
                },
                { name: 'locations/2', title: 'Not verified yet', metadata: {} },
              ],
              nextPageToken: 'p2',
            });
          return send(200, {
            locations: [{ name: 'locations/3', title: 'Richmond', metadata: { placeId: 'ChIJrichmond' } }],
          });
        }
        send(404, { error: { message: 'not found' } });
      });
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }
  async close() {
    this.server.closeAllConnections();
    await new Promise<void>((r) => this.server.close(() => r()));
  }
}

describe('Google Business Profile against a fake Google', () => {
  let google: FakeGoogle;
  let t: TestApp;
  let owner: string;
  beforeAll(async () => {
    google = new FakeGoogle();
    await google.start();
    t = await createTestApp({
      GOOGLE_BUSINESS_CLIENT_ID: 'client-1.apps.googleusercontent.com',
      GOOGLE_BUSINESS_CLIENT_SECRET: 'secret-1',
      GOOGLE_OAUTH_AUTH_URL: `${google.url}/auth`,
      GOOGLE_OAUTH_TOKEN_URL: `${google.url}/token`,
      GOOGLE_BUSINESS_ACCOUNTS_API_BASE: google.url,
      GOOGLE_BUSINESS_INFO_API_BASE: google.url,
    });
    owner = await t.login(DEMO_LOGINS.owner);
  });
  afterAll(async () => {
    await t.close();
    await google.close();
  });
  const places = async () =>
    (
      await t.request({ method: 'GET', url: '/api/v1/business/locations/google-locations', token: owner })
    ).json().body;

  it('connects with Google’s consent, keeps the refresh token, and lists the verified places with their review links', async () => {
    expect(await places()).toEqual({ source: 'google', connected: false, items: [] });
    const staff = await t.login(DEMO_LOGINS.staff1);
    expect(
      (await t.request({ method: 'GET', url: '/api/v1/business/google/connect-link', token: staff }))
        .statusCode,
    ).toBe(403);
    const link = new URL(
      (await t.request({ method: 'GET', url: '/api/v1/business/google/connect-link', token: owner })).json()
        .body.url,
    );
    expect(link.origin + link.pathname).toBe(`${google.url}/auth`);
    expect(Object.fromEntries(link.searchParams)).toMatchObject({
      client_id: 'client-1.apps.googleusercontent.com',
      redirect_uri: `${t.config.publicUrl}/api/v1/business/google/callback`,
      response_type: 'code',
      scope: 'https://www.googleapis.com/auth/business.manage',
      access_type: 'offline',
      prompt: 'consent',
    });
    const state = link.searchParams.get('state')!;

    // A forged or missing state, a refusal and a bad code change nothing.
    const forged = await t.request({
      method: 'GET',
      url: `/api/v1/business/google/callback?code=good-code&state=${state.slice(0, -4)}AAAA`,
    });
    expect(forged.headers.location).toBe('/reviews?google=expired');
    const refused = await t.request({
      method: 'GET',
      url: `/api/v1/business/google/callback?error=access_denied&state=${state}`,
    });
    expect(refused.headers.location).toBe('/reviews?google=refused');
    const bad = await t.request({
      method: 'GET',
      url: `/api/v1/business/google/callback?code=bad&state=${state}`,
    });
    expect(bad.headers.location).toBe('/reviews?google=failed');
    expect((await places()).connected).toBe(false);

    const ok = await t.request({
      method: 'GET',
      url: `/api/v1/business/google/callback?code=good-code&state=${state}`,
    });
    expect(ok.statusCode).toBe(303);
    expect(ok.headers.location).toBe('/reviews?google=connected');
    const exchange = google.calls.filter((c) => c.path === '/token').at(-1)!;
    expect(Object.fromEntries(exchange.body)).toMatchObject({
      grant_type: 'authorization_code',
      code: 'good-code',
      client_secret: 'secret-1',
      redirect_uri: `${t.config.publicUrl}/api/v1/business/google/callback`,
    });

    expect(await places()).toEqual({
      source: 'google',
      connected: true,
      items: [
        {
          place_id: 'ChIJdocklands',
          title: 'Harbourside Dental Docklands',
          address: '12 Harbour Esplanade, Docklands VIC 3008',
          review_link: 'https://g.page/r/docklands/review',
        },
        {
          place_id: 'ChIJrichmond',
          title: 'Richmond',
          address: null,
          review_link: 'https://search.google.com/local/writereview?placeid=ChIJrichmond',
        },
      ],
    });
    const listed = google.calls.find((c) => c.path === '/v1/accounts/111/locations')!;
    expect(listed.query.get('readMask')).toBe('name,title,storefrontAddress,metadata');
  });

  it('forgets a connection the owner removed in Google, so they can connect again', async () => {
    google.revoked = true;
    expect(await places()).toEqual({ source: 'google', connected: false, items: [] });
  });
});
