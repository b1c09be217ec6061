import { oneTimeSecrets, queryRows } from '@switchboard/db';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeMailServer, fakeMailServer } from '../../channels/email/testing.ts';
import { passwordResetMail } from '../../jobs/definitions/account-mail.ts';
import {
  createTestApp,
  DEMO_LOGINS,
  DEMO_PASSWORD,
  eventually,
  type Json,
  jobsSettled,
  type TestApp,
} from '../../test/helpers.ts';

const PUBLIC_URL = 'https://switchboard.example.com';
const SUBJECT = 'Reset your Switchboard password';

const post = (t: TestApp, url: string, payload: object, ip = '198.51.100.7') =>
  t.app.inject({ method: 'POST', url: `/api/v1/auth/password-reset${url}`, payload, remoteAddress: ip });

const ask = (t: TestApp, email: string, ip?: string) => post(t, '', { email }, ip);

const resetMails = (mail: FakeMailServer, email: string) =>
  mail.received.filter(
    (m) => m.rcpt_to.some((r) => r.toLowerCase() === email.toLowerCase()) && m.email.subject === SUBJECT,
  );

/** The secret in the `n`th reset email to this address, once the job has sent it. */
async function emailedToken(mail: FakeMailServer, email: string, n = 1): Promise<string> {
  const received = await eventually(async () => resetMails(mail, email)[n - 1]);
  const token = /https:\/\/switchboard\.example\.com\/reset-password#token=([\w-]+)/.exec(
    received.email.text ?? '',
  )?.[1];
  if (!token) throw new Error(`no reset link in: ${received.email.text}`);
  return token;
}

const login = (t: TestApp, email: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email, password } });

describe('resetting a forgotten password', () => {
  let t: TestApp;
  let mail: FakeMailServer;
  beforeAll(async () => {
    mail = await fakeMailServer();
    t = await createTestApp({ SMTP_URL: mail.url, PUBLIC_URL });
  });
  afterAll(async () => {
    await t.close();
    await mail.stop();
  });

  it('answers the same whether or not the address has an account; only an account gets a link', async () => {
    const known = await ask(t, DEMO_LOGINS.staff2.toUpperCase());
    const unknown = await ask(t, 'nobody-here@example.com');
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(known.json().body).toEqual({ email: DEMO_LOGINS.staff2.toUpperCase(), minutes: 15 });
    expect(unknown.json().body).toEqual({ email: 'nobody-here@example.com', minutes: 15 });
    expect(Object.keys(known.headers).sort()).toEqual(Object.keys(unknown.headers).sort());

    await emailedToken(mail, DEMO_LOGINS.staff2);
    const [sent] = resetMails(mail, DEMO_LOGINS.staff2);
    expect(sent!.email.text).toContain('within 15 minutes');
    await jobsSettled(t, passwordResetMail, { data: { email: 'nobody-here@example.com' } });
    expect(mail.received.some((m) => m.rcpt_to.includes('nobody-here@example.com'))).toBe(false);

    expect((await ask(t, 'not an email')).statusCode).toBe(400);
  });

  it('sets a new password once per link, stores only its hash, and signs out every other session', async () => {
    const email = DEMO_LOGINS.staff1;
    const elsewhere = (await login(t, email, DEMO_PASSWORD)).json().body.token;
    const another = (await login(t, email, DEMO_PASSWORD)).json().body.token;
    const owner = (await login(t, DEMO_LOGINS.owner, DEMO_PASSWORD)).json().body.token;
    expect((await ask(t, email)).statusCode).toBe(200);
    const token = await emailedToken(mail, email);

    // Neither the secrets table nor the job queue holds the link in clear.
    const rows = await t.database.db
      .select()
      .from(oneTimeSecrets)
      .where(eq(oneTimeSecrets.kind, 'password_reset'));
    expect(rows.length).toBeGreaterThan(0);
    expect(JSON.stringify(rows)).not.toContain(token);
    const jobs = await queryRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from pgboss.job where data::text like ${`%${token}%`}`,
    );
    expect(jobs[0]!.n).toBe(0);

    const open = await post(t, '/check', { token });
    expect(open.statusCode, open.body).toBe(200);
    expect(open.json().body.email).toBe(email);
    const minutes = (new Date(open.json().body.expires_at).getTime() - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(14);
    expect(minutes).toBeLessThanOrEqual(15);

    const short = await post(t, '/complete', { token, password: 'short' });
    expect(short.statusCode).toBe(400);
    expect(short.json().message).toContain('at least 8 characters');
    const done = await post(t, '/complete', { token, password: 'a brand new password' });
    expect(done.statusCode, done.body).toBe(200);
    const fresh = done.json().body.token;

    const me = (token: string) => t.request({ method: 'GET', url: '/api/v1/user/me', token });
    expect((await me(elsewhere)).statusCode).toBe(401);
    expect((await me(another)).statusCode).toBe(401);
    expect((await me(fresh)).statusCode).toBe(200);
    expect((await login(t, email, DEMO_PASSWORD)).statusCode).toBe(401);
    expect((await login(t, email, 'a brand new password')).statusCode).toBe(200);

    const again = await post(t, '/complete', { token, password: 'yet another password' });
    expect(again.statusCode).toBe(422);
    expect(again.json().message).toContain('already been used');
    expect((await post(t, '/check', { token })).statusCode).toBe(422);
    expect((await login(t, email, 'yet another password')).statusCode).toBe(401);

    // Where the business's audit log is shown, the owner sees it.
    const log = await t.request({ method: 'GET', url: '/api/v1/business/audit-log', token: owner });
    const entry = log.json().body.items.find((e: Json) => e.action === 'user.password_reset');
    expect(entry).toMatchObject({ user: { email }, detail: { email, sessions_ended: 2 } });
  });

  it('a link works for 15 minutes, and a newer one replaces it', async () => {
    const email = DEMO_LOGINS.northsideOwner;
    await ask(t, email);
    const first = await emailedToken(mail, email, 1);
    await ask(t, email);
    const second = await emailedToken(mail, email, 2);
    const replaced = await post(t, '/check', { token: first });
    expect(replaced.statusCode).toBe(422);
    expect(replaced.json().message).toContain('a newer one was sent since');

    expect((await post(t, '/check', { token: second })).statusCode).toBe(200);
    await t.database.db
      .update(oneTimeSecrets)
      .set({ expires_at: new Date(Date.now() - 1) })
      .where(eq(oneTimeSecrets.target, email));
    const late = await post(t, '/complete', { token: second, password: 'too late for this' });
    expect(late.statusCode).toBe(422);
    expect(late.json().message).toBe(
      'This password reset link has expired: links work for 15 minutes. Ask for a new one.',
    );
    expect((await login(t, email, DEMO_PASSWORD)).statusCode).toBe(200);

    const forged = await post(t, '/check', { token: 'not-a-real-token' });
    expect(forged.statusCode).toBe(422);
    expect(forged.json().message).toContain('not one of ours');
  });
});

describe('limits on password reset requests', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL });
  });
  afterAll(async () => t.close());

  it('per address, the same for one with an account and one without, and per network', async () => {
    const statuses = async (email: string, ip: string) => {
      const out: number[] = [];
      for (let i = 0; i < 4; i++) out.push((await ask(t, email, ip)).statusCode);
      return out;
    };
    expect(await statuses(DEMO_LOGINS.staff1, '192.0.2.10')).toEqual([200, 200, 200, 429]);
    expect(await statuses('nobody@example.com', '192.0.2.11')).toEqual([200, 200, 200, 429]);
    const known = await ask(t, DEMO_LOGINS.staff1, '192.0.2.12');
    const unknown = await ask(t, 'nobody@example.com', '192.0.2.12');
    expect(known.json().message).toMatch(
      /^Too many password reset requests for this email\. Please try again/,
    );
    expect(unknown.json().message).toBe(known.json().message);
    expect(known.headers['retry-after']).toBeDefined();

    // One network: 20 an hour (192.0.2.12 has asked twice).
    const network: number[] = [];
    for (let i = 0; i < 19; i++)
      network.push((await ask(t, `person${i}@example.com`, '192.0.2.12')).statusCode);
    expect(network.slice(0, 18).every((s) => s === 200)).toBe(true);
    expect(network[18]).toBe(429);
    expect((await ask(t, 'person99@example.com', '192.0.2.12')).json().message).toMatch(
      /^Too many password reset requests from this network\./,
    );
  });

  it('counts an IPv6 network by its /64, so stepping through its addresses gains nothing', async () => {
    const network: number[] = [];
    for (let i = 0; i < 21; i++)
      network.push(
        (await ask(t, `v6person${i}@example.com`, `2001:db8:7:1::${(i + 1).toString(16)}`)).statusCode,
      );
    expect(network.slice(0, 20).every((s) => s === 200)).toBe(true);
    expect(network[20]).toBe(429);
    // Another /64 has its own allowance.
    expect((await ask(t, 'v6other@example.com', '2001:db8:7:2::1')).statusCode).toBe(200);
  });

  it('takes about as long for an address with an account as for one without', async () => {
    const time = async (email: string, ip: string) => {
      const started = performance.now();
      const res = await ask(t, email, ip);
      expect(res.statusCode).toBe(200);
      return performance.now() - started;
    };
    const known: number[] = [];
    const unknown: number[] = [];
    const people = [DEMO_LOGINS.owner, DEMO_LOGINS.staff2, DEMO_LOGINS.admin];
    for (let round = 0; round < 3; round++) {
      for (const [i, email] of people.entries()) {
        known.push(await time(email, `192.0.2.${100 + round}`));
        unknown.push(await time(`stranger${i}@example.com`, `192.0.2.${100 + round}`));
      }
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    // Both do the same work (two limit checks and one queued job); the lookup happens later, in the job.
    expect(Math.abs(median(known) - median(unknown))).toBeLessThan(25);
  });
});
