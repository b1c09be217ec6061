import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DEMO_LOGINS, DEMO_PASSWORD, type TestApp } from '../../test/helpers.ts';

describe('auth and sessions', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ LOGIN_MAX_PER_EMAIL: '3' });
  });
  afterAll(() => t.close());

  it('logs in with email and password and answers body { token, key, iv } with the token payload', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: DEMO_LOGINS.owner, password: DEMO_PASSWORD },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['request-id']).toBeTruthy();
    const { token, key, iv } = res.json().body;
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(iv).toMatch(/^[0-9a-f]{24}$/);
    const payload = decodeJwt(token);
    expect(payload.business_id).toEqual(expect.any(String));
    expect(payload.location_id).toEqual(expect.any(String));
    expect(payload.user_id).toEqual(expect.any(String));
  });

  it('accepts the email in any case', async () => {
    await expect(t.login(DEMO_LOGINS.staff1.toUpperCase())).resolves.toEqual(expect.any(String));
  });

  it('answers wrong credentials with 401 and the same message whether or not the email exists', async () => {
    const known = await t.request({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: DEMO_LOGINS.staff2, password: 'nope' },
    });
    const unknown = await t.request({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: 'nobody@nowhere.test', password: 'nope' },
    });
    expect(known.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(known.json()).toEqual(unknown.json());
    expect(known.json()).toEqual({
      message: 'The email or password is incorrect.',
      code: 'invalid_credentials',
    });
  });

  it('takes about the same time for an unknown email as for a wrong password', async () => {
    const time = async (email: string) => {
      const start = performance.now();
      await t.request({ method: 'POST', url: '/api/v1/auth/login', payload: { email, password: 'x' } });
      return performance.now() - start;
    };
    await time('warm@up.test');
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 3; i++) {
      known.push(await time(DEMO_LOGINS.northsideOwner));
      unknown.push(await time(`ghost${i}@nowhere.test`));
    }
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    // Both paths run one argon2 verification; an unknown email that skipped it would be ~10x faster.
    expect(median(unknown)).toBeGreaterThan(median(known) * 0.4);
  });

  it('rejects bad input with 400 and a message naming the field', async () => {
    const res = await t.request({ method: 'POST', url: '/api/v1/auth/login', payload: { email: 42 } });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('validation_failed');
    expect(res.json().fields).toEqual({ email: expect.any(String), password: expect.any(String) });
  });

  it('rate-limits repeated failures for one email with 429 and a message', async () => {
    const email = 'someone@harbourside.test';
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await t.request({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { email, password: 'bad' },
      });
      statuses.push(res.statusCode);
      if (res.statusCode === 429) expect(res.json().message).toMatch(/Too many login attempts/);
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
  });

  it('honours the BID and LID headers to pick the business and location', async () => {
    const token = await t.login(DEMO_LOGINS.owner);
    const me = (await t.request({ method: 'GET', url: '/api/v1/user/me', token })).json().body;
    const second = me.businesses[0].locations[1];
    const token2 = await t.login(DEMO_LOGINS.owner, { BID: me.businesses[0].id, LID: second.id });
    expect(decodeJwt(token2).location_id).toBe(second.id);
  });

  it('revokes the token on logout: it gets 401 afterwards', async () => {
    const token = await t.login(DEMO_LOGINS.staff1);
    expect((await t.request({ method: 'GET', url: '/api/v1/user/me', token })).statusCode).toBe(200);
    expect((await t.request({ method: 'PUT', url: '/api/v1/user/logout', token })).statusCode).toBe(200);
    const after = await t.request({ method: 'GET', url: '/api/v1/user/me', token });
    expect(after.statusCode).toBe(401);
    expect(after.json().code).toBe('session_expired');
  });

  it('refuses a missing, malformed or forged token with 401', async () => {
    expect((await t.request({ method: 'GET', url: '/api/v1/user/me' })).statusCode).toBe(401);
    expect((await t.request({ method: 'GET', url: '/api/v1/user/me', token: 'abc' })).statusCode).toBe(401);
    const token = await t.login(DEMO_LOGINS.staff1);
    const [h, p] = token.split('.');
    const forged = `${h}.${p}.${'A'.repeat(43)}`;
    expect((await t.request({ method: 'GET', url: '/api/v1/user/me', token: forged })).statusCode).toBe(401);
  });

  it('invalidates every earlier token after a password change', async () => {
    const old1 = await t.login(DEMO_LOGINS.staff2);
    const old2 = await t.login(DEMO_LOGINS.staff2);
    const res = await t.request({
      method: 'PUT',
      url: '/api/v1/user/password',
      token: old1,
      payload: { current_password: DEMO_PASSWORD, new_password: 'a-new-password' },
    });
    expect(res.statusCode).toBe(200);
    const fresh = res.json().body.token;
    expect((await t.request({ method: 'GET', url: '/api/v1/user/me', token: old1 })).statusCode).toBe(401);
    expect((await t.request({ method: 'GET', url: '/api/v1/user/me', token: old2 })).statusCode).toBe(401);
    expect((await t.request({ method: 'GET', url: '/api/v1/user/me', token: fresh })).statusCode).toBe(200);
    const wrong = await t.request({
      method: 'PUT',
      url: '/api/v1/user/password',
      token: fresh,
      payload: { current_password: 'not-it', new_password: 'another-password' },
    });
    expect(wrong.statusCode).toBe(422);
  });

  it('switches location and business with a new token, and refuses another tenant with 404', async () => {
    const token = await t.login(DEMO_LOGINS.admin);
    const me = (await t.request({ method: 'GET', url: '/api/v1/user/me', token })).json().body;
    const northside = me.businesses.find((b: { name: string }) => b.name === 'Northside Plumbing');
    const res = await t.request({
      method: 'PUT',
      url: '/api/v1/user/switch',
      token,
      payload: { business_id: northside.id },
    });
    expect(res.statusCode).toBe(200);
    const switched = res.json().body.token;
    expect(decodeJwt(switched).business_id).toBe(northside.id);
    const me2 = (await t.request({ method: 'GET', url: '/api/v1/user/me', token: switched })).json().body;
    expect(me2.businesses.find((b: { selected: boolean }) => b.selected).name).toBe('Northside Plumbing');

    const ownerToken = await t.login(DEMO_LOGINS.owner);
    const denied = await t.request({
      method: 'PUT',
      url: '/api/v1/user/switch',
      token: ownerToken,
      payload: { business_id: northside.id },
    });
    expect(denied.statusCode).toBe(404);
    const badLocation = await t.request({
      method: 'PUT',
      url: '/api/v1/user/switch',
      token,
      payload: { business_id: me.businesses[0].id, location_id: northside.locations[0].id },
    });
    expect(badLocation.statusCode).toBe(404);
  });
});

describe('sliding renewal', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ TOKEN_RENEW_AFTER_SECONDS: '0' });
  });
  afterAll(() => t.close());

  it('sends a renewed token in the refresh-token header that works in its place', async () => {
    const token = await t.login(DEMO_LOGINS.owner);
    const res = await t.request({ method: 'GET', url: '/api/v1/user/me', token });
    const renewed = res.headers['refresh-token'] as string;
    expect(renewed).toBeTruthy();
    const { exp, iat } = decodeJwt(renewed);
    expect(exp! - iat!).toBe(14 * 86_400);
    expect((await t.request({ method: 'GET', url: '/api/v1/user/me', token: renewed })).statusCode).toBe(200);
  });
});
