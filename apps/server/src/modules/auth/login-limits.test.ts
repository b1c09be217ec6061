import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeMailServer, fakeMailServer } from '../../channels/email/testing.ts';
import { systemMail } from '../../jobs/definitions/system-mail.ts';
import {
  createTestApp,
  DEMO_LOGINS,
  DEMO_PASSWORD,
  eventually,
  jobsSettled,
  type TestApp,
} from '../../test/helpers.ts';
import { DEVICE_COOKIE } from './device.ts';

type Attempt = {
  email: string;
  password: string;
  ip?: string;
  cookie?: string;
  headers?: Record<string, string>;
};

function attempt(t: TestApp, a: Attempt) {
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: { email: a.email, password: a.password },
    remoteAddress: a.ip ?? '127.0.0.1',
    headers: { ...(a.cookie ? { cookie: a.cookie } : {}), ...a.headers },
  });
}

/** The `name=value` of the device cookie a response set, for sending back as a browser would. */
function deviceCookie(res: { cookies: { name: string; value: string }[] }): string {
  const c = res.cookies.find((x) => x.name === DEVICE_COOKIE);
  if (!c) throw new Error('no device cookie set');
  return `${c.name}=${c.value}`;
}

describe('login limits per email', () => {
  let t: TestApp;
  let mail: FakeMailServer;
  beforeAll(async () => {
    mail = await fakeMailServer();
    t = await createTestApp({
      LOGIN_MAX_PER_EMAIL: '10',
      LOGIN_MAX_PER_IP: '100000',
      SMTP_URL: mail.url,
      PUBLIC_URL: 'https://switchboard.example.com',
    });
  });
  afterAll(async () => {
    await t.close();
    await mail.stop();
  });

  it('lets no more than the limit of concurrent guesses reach the password check', async () => {
    const email = DEMO_LOGINS.staff2;
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) => attempt(t, { email, password: `guess-${i}`, ip: `10.1.0.${i}` })),
    );
    const checked = results.filter((r) => r.statusCode === 401).length;
    const refused = results.filter((r) => r.statusCode === 429).length;
    expect(checked).toBe(10);
    expect(refused).toBe(50);
    // Even the right password waits out the window now, from a browser that never signed in.
    expect((await attempt(t, { email, password: DEMO_PASSWORD, ip: '10.1.1.1' })).statusCode).toBe(429);
  });

  it('still lets the owner in from a browser that signed in before, after wrong passwords from ten IPs', async () => {
    const email = DEMO_LOGINS.staff1;
    const before = await attempt(t, { email, password: DEMO_PASSWORD, ip: '192.0.2.10' });
    expect(before.statusCode).toBe(200);
    const cookie = deviceCookie(before);
    const setCookie = String(before.headers['set-cookie']);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/Secure/i);

    for (let i = 0; i < 10; i++) {
      const res = await attempt(t, { email, password: 'wrong', ip: `198.51.100.${i}` });
      expect(res.statusCode).toBe(401);
    }
    const stranger = await attempt(t, { email, password: DEMO_PASSWORD, ip: '203.0.113.7' });
    expect(stranger.statusCode).toBe(429);
    expect(stranger.json().message).toMatch(/Too many login attempts/);

    const owner = await attempt(t, { email, password: DEMO_PASSWORD, ip: '203.0.113.8', cookie });
    expect(owner.statusCode).toBe(200);
    expect(owner.json().body.token).toEqual(expect.any(String));
  });

  it("gives no extra attempts with a browser cookie that belongs to someone else's account", async () => {
    const own = await attempt(t, { email: DEMO_LOGINS.northsideOwner, password: DEMO_PASSWORD });
    const cookie = deviceCookie(own);
    const victim = DEMO_LOGINS.owner;
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      statuses.push(
        (await attempt(t, { email: victim, password: `x${i}`, ip: `10.9.0.${i}`, cookie })).statusCode,
      );
    }
    expect(statuses.filter((s) => s === 401)).toHaveLength(10);
    expect(statuses.slice(10)).toEqual([429, 429]);
  });

  it('emails the person once with a link that lets the browser it is opened in sign in', async () => {
    const email = DEMO_LOGINS.owner;
    // The previous test used up this email's attempts: a refused attempt has sent the email.
    const received = await eventually(async () => mail.received.find((m) => m.rcpt_to.includes(email)));
    expect(received.email.subject).toBe('Sign-in attempts paused on your Switchboard account');
    const link = /https:\/\/switchboard\.example\.com(\/api\/v1\/auth\/unlock\?token=[\w.-]+)/.exec(
      received.email.text ?? '',
    );
    expect(link).not.toBeNull();
    expect((await attempt(t, { email, password: 'nope', ip: '10.9.9.9' })).statusCode).toBe(429);
    // Every email queued for this address has been sent: only the first refusal queued one.
    const mails = await jobsSettled(t, systemMail, { data: { to: email } });
    expect(mails).toHaveLength(1);
    expect(mail.received.filter((m) => m.rcpt_to.includes(email))).toHaveLength(1);

    const opened = await t.app.inject({ method: 'GET', url: link![1]! });
    expect(opened.statusCode).toBe(303);
    expect(opened.headers.location).toBe('/?unlock=ok');
    const cookie = deviceCookie(opened);
    expect((await attempt(t, { email, password: DEMO_PASSWORD, ip: '10.9.9.10', cookie })).statusCode).toBe(
      200,
    );

    const forged = await t.app.inject({ method: 'GET', url: '/api/v1/auth/unlock?token=abc.def.ghi' });
    expect(forged.statusCode).toBe(303);
    expect(forged.headers.location).toBe('/?unlock=expired');
    expect(forged.cookies.find((c) => c.name === DEVICE_COOKIE)).toBeUndefined();
  });
});

describe('client addresses and proxies', () => {
  it('ignores X-Forwarded-For unless the connection comes from a configured proxy', async () => {
    const t = await createTestApp({ LOGIN_MAX_PER_IP: '5', LOGIN_MAX_PER_EMAIL: '1000' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 7; i++) {
        const res = await attempt(t, {
          email: `nobody${i}@nowhere.test`,
          password: 'x',
          ip: '198.51.100.1',
          headers: { 'x-forwarded-for': `203.0.113.${i}` },
        });
        statuses.push(res.statusCode);
      }
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
    } finally {
      await t.close();
    }
  });

  it('believes X-Forwarded-For from a proxy named in TRUST_PROXY', async () => {
    const t = await createTestApp({
      LOGIN_MAX_PER_IP: '5',
      LOGIN_MAX_PER_EMAIL: '1000',
      TRUST_PROXY: '10.0.0.0/8',
    });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 7; i++) {
        const res = await attempt(t, {
          email: `nobody${i}@nowhere.test`,
          password: 'x',
          ip: '10.0.0.2',
          headers: { 'x-forwarded-for': `203.0.113.${i}` },
        });
        statuses.push(res.statusCode);
      }
      expect(statuses.every((s) => s === 401)).toBe(true);
    } finally {
      await t.close();
    }
  });

  it('counts an IPv6 client by its /64, and an IPv4 address written as IPv6 as that IPv4 address', async () => {
    const t = await createTestApp({ LOGIN_MAX_PER_IP: '3', LOGIN_MAX_PER_EMAIL: '1000' });
    try {
      const statuses = async (ips: string[]) => {
        const out: number[] = [];
        for (const [i, ip] of ips.entries())
          out.push((await attempt(t, { email: `v6-${i}@nowhere.test`, password: 'x', ip })).statusCode);
        return out;
      };
      // Every address a home or server is given for free, one after another: one allowance between them.
      expect(
        await statuses([
          '2001:db8:5:1::1',
          '2001:db8:5:1::2',
          '2001:db8:5:1:abcd::3',
          '2001:db8:5:1:ffff::4',
        ]),
      ).toEqual([401, 401, 401, 429]);
      // The neighbouring /64 is someone else.
      expect(await statuses(['2001:db8:5:2::1'])).toEqual([401]);
      expect(await statuses(['192.0.2.77', '::ffff:192.0.2.77', '::ffff:c000:24d', '192.0.2.77'])).toEqual([
        401, 401, 401, 429,
      ]);
    } finally {
      await t.close();
    }
  });

  it('counts a forwarded IPv6 client by its /64 when the proxy is trusted', async () => {
    const t = await createTestApp({
      LOGIN_MAX_PER_IP: '2',
      LOGIN_MAX_PER_EMAIL: '1000',
      TRUST_PROXY: '10.0.0.0/8',
    });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await attempt(t, {
          email: `fwd6-${i}@nowhere.test`,
          password: 'x',
          ip: '10.0.0.2',
          headers: { 'x-forwarded-for': `2001:db8:7:7::${i + 1}` },
        });
        statuses.push(res.statusCode);
      }
      expect(statuses).toEqual([401, 401, 429]);
    } finally {
      await t.close();
    }
  });

  it('refuses a TRUST_PROXY that is not a list of addresses', async () => {
    await expect(createTestApp({ TRUST_PROXY: 'true' })).rejects.toThrow(/TRUST_PROXY/);
  });
});

describe('access tokens signed with the right secret but shaped wrong', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const sign = (claims: Record<string, unknown>, exp: boolean) => {
    const jwt = new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setIssuedAt();
    if (exp) jwt.setExpirationTime('1h');
    return jwt.sign(t.config.jwtSecret);
  };

  it('answers 401, never 500, for claims that are not uuids', async () => {
    const token = await sign(
      { user_id: 'x', sid: "1' or '1'='1", tv: 0, business_id: 'y', location_id: null },
      true,
    );
    const res = await t.request({ method: 'GET', url: '/api/v1/user/me', token });
    expect(res.statusCode).toBe(401);
  });

  it('refuses a token without an expiry', async () => {
    const real = await t.login(DEMO_LOGINS.staff1);
    const { decodeJwt } = await import('jose');
    const { exp: _exp, iat: _iat, ...claims } = decodeJwt(real);
    const forever = await sign(claims, false);
    expect((await t.request({ method: 'GET', url: '/api/v1/user/me', token: forever })).statusCode).toBe(401);
    const withExp = await sign(claims, true);
    expect((await t.request({ method: 'GET', url: '/api/v1/user/me', token: withExp })).statusCode).toBe(200);
  });
});
