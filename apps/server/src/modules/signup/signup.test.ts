import { createServer, type Server } from 'node:http';
import { businesses, oneTimeSecrets, users } from '@switchboard/db';
import { trialRemainingDays } from '@switchboard/shared';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeMailServer, fakeMailServer } from '../../channels/email/testing.ts';
import {
  createTestApp,
  DEMO_LOGINS,
  eventually,
  inbound,
  selectedLocation,
  type TestApp,
} from '../../test/helpers.ts';
import { tidyExpiredSecrets } from './secrets.ts';

const PUBLIC_URL = 'https://switchboard.example.com';

function signupBody(form_token: string, over: Record<string, unknown> = {}) {
  return {
    business_name: 'Bayside Physio',
    full_name: 'Bea Bayside',
    email: 'bea@bayside.test',
    password: 'a good long password',
    mobile: '0412 345 678',
    country: 'AU',
    timezone: 'Australia/Sydney',
    location: { name: 'Bayside Physio Manly', address: '1 The Corso, Manly NSW' },
    meta: { tracking: { utm_source: 'google', gclid: 'abc123' } },
    form_token,
    website: '',
    ...over,
  };
}

async function formToken(t: TestApp): Promise<string> {
  const res = await t.request({ method: 'GET', url: '/api/v1/business/register/form' });
  expect(res.statusCode).toBe(200);
  return res.json().body.form_token;
}

const register = (t: TestApp, payload: object, ip = '203.0.113.50') =>
  t.app.inject({ method: 'POST', url: '/api/v1/business/register', payload, remoteAddress: ip });

const confirm = (t: TestApp, email: string, code: string, ip = '203.0.113.50') =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/business/register/confirm',
    payload: { email, code },
    remoteAddress: ip,
  });

const linkIn = (text: string | undefined) => {
  const found = /https:\/\/switchboard\.example\.com\/signup\/confirm\?secret=([\w-]+)/.exec(text ?? '');
  if (!found) throw new Error(`no confirmation link in: ${text}`);
  return found[1]!;
};

async function countUsers(t: TestApp) {
  const [row] = await t.database.db.select({ n: sql<number>`count(*)::int` }).from(users);
  return row!.n;
}

/** Emails to this address, oldest first. */
const mailTo = (mail: FakeMailServer, email: string, subject?: string) =>
  mail.received.filter(
    (m) =>
      m.rcpt_to.some((r) => r.toLowerCase() === email.toLowerCase()) &&
      (subject === undefined || m.email.subject === subject),
  );

const CODE_SUBJECT = 'Your Switchboard sign-up code';
const LINK_SUBJECT = 'Confirm your email address for Switchboard';

/** The code in the `n`th sign-up code email to this address, once it has arrived (a job sends it). */
async function emailedCode(mail: FakeMailServer, email: string, n = 1): Promise<string> {
  const received = await eventually(async () => mailTo(mail, email, CODE_SUBJECT)[n - 1]);
  const code = /signing up to Switchboard is (\d{6})/.exec(received.email.text ?? '')?.[1];
  if (!code) throw new Error(`no code in: ${received.email.text}`);
  return code;
}

/** The whole sign-up: the form, the emailed code, signed in. */
async function signUp(t: TestApp, mail: FakeMailServer, over: Record<string, unknown>, ip: string) {
  const started = await register(t, signupBody(await formToken(t), over), ip);
  expect(started.statusCode, started.body).toBe(200);
  const email = started.json().body.email as string;
  const done = await confirm(t, email, await emailedCode(mail, email), ip);
  expect(done.statusCode, done.body).toBe(200);
  return done.json().body as { token: string; business_id: string; email: string };
}

describe('sign-up', () => {
  let t: TestApp;
  let mail: FakeMailServer;
  beforeAll(async () => {
    mail = await fakeMailServer();
    t = await createTestApp({
      SMTP_URL: mail.url,
      PUBLIC_URL,
      SIGNUP_MIN_SECONDS: '0',
      SIGNUP_MAX_PER_IP: '5',
      TRIAL_DAYS: '14',
      MESSAGE_LIMIT_TRIAL: '123',
    });
  });
  afterAll(async () => {
    await t.close();
    await mail.stop();
  });

  it('emails a code and creates nothing until it comes back; then the business exists, its email confirmed, its owner signed in', async () => {
    const before = await countUsers(t);
    const res = await register(t, signupBody(await formToken(t)));
    expect(res.statusCode, res.body).toBe(200);
    const started = res.json().body;
    expect(started.email).toBe('bea@bayside.test');
    const minutes = (new Date(started.expires_at).getTime() - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(29);
    expect(minutes).toBeLessThanOrEqual(30);
    expect(await countUsers(t)).toBe(before);

    const code = await emailedCode(mail, 'bea@bayside.test');
    const [sentMail] = mailTo(mail, 'bea@bayside.test', CODE_SUBJECT);
    // The email names nothing the person typed: it may reach an address that is not theirs.
    expect(sentMail!.email.text).not.toContain('Bayside');
    expect(sentMail!.email.text).not.toContain('Bea');
    // Only an HMAC of the code is kept.
    const [row] = await t.database.db
      .select()
      .from(oneTimeSecrets)
      .where(eq(oneTimeSecrets.target, 'bea@bayside.test'));
    expect(row!.kind).toBe('signup');
    expect(JSON.stringify(row)).not.toContain(code);

    const wrong = code === '000000' ? '111111' : '000000';
    const first = await confirm(t, 'bea@bayside.test', wrong);
    expect(first.statusCode).toBe(422);
    expect(first.json().message).toBe('That code is not right. 4 tries left.');
    expect((await confirm(t, 'bea@bayside.test', '12')).statusCode).toBe(400);

    const done = await confirm(t, 'Bea@Bayside.test', code);
    expect(done.statusCode, done.body).toBe(200);
    const { token, business_id, email } = done.json().body;
    expect(email).toBe('bea@bayside.test');
    const me = await t.request({ method: 'GET', url: '/api/v1/user/me', token });
    expect(me.statusCode).toBe(200);
    const business = me.json().body.businesses.find((b: { selected: boolean }) => b.selected);
    expect(business).toMatchObject({
      id: business_id,
      name: 'Bayside Physio',
      is_owner: true,
      verified: true,
    });
    expect(business.locations.map((l: { name: string }) => l.name)).toEqual(['Bayside Physio Manly']);

    const [b] = await t.database.db.select().from(businesses).where(eq(businesses.id, business_id));
    expect(b).toMatchObject({
      plan: 'trial',
      message_limit: 123,
      country: 'AU',
      timezone: 'Australia/Sydney',
      verified: true,
    });
    // The strip reads 14 days on the sign-up day, at whatever hour the business signed up.
    expect(trialRemainingDays(b!.trial_end_date!)).toBe(14);
    const days = (b!.trial_end_date!.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(13);
    expect(days).toBeLessThan(15);
    expect(b!.signup_meta).toMatchObject({
      ip: '203.0.113.50',
      tracking: { utm_source: 'google', gclid: 'abc123' },
    });
    const [owner] = await t.database.db.select().from(users).where(eq(users.email, 'bea@bayside.test'));
    expect(owner!.mobile).toBe('+61412345678');
    // The row forgets what it waited to create (the password hash among it) once used.
    const [used] = await t.database.db.select().from(oneTimeSecrets).where(eq(oneTimeSecrets.id, row!.id));
    expect(used!.used_at).not.toBeNull();
    expect(used!.detail).toBeNull();

    // Confirmed from the start: it may send to its customers at once.
    const location = await selectedLocation(t, token);
    const { enquiry_id } = await inbound(t, token, {
      location_id: location,
      from: { phone: '+61400111222' },
      message: 'Hi',
    });
    const sent = await t.request({
      method: 'POST',
      url: `/api/v1/enquiries/${enquiry_id}/messages`,
      token,
      payload: { message: 'Hello!' },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const log = await t.request({ method: 'GET', url: '/api/v1/business/audit-log', token });
    expect(log.json().body.items).toEqual(
      expect.arrayContaining([expect.objectContaining({ action: 'business.register', target: business_id })]),
    );

    // The code works once.
    const again = await confirm(t, 'bea@bayside.test', code);
    expect(again.statusCode).toBe(422);
    expect(again.json().message).toContain('no code waiting');
  });

  it('answers an address with an account exactly as a new one, and emails its owner instead', async () => {
    const taken = DEMO_LOGINS.northsideOwner;
    const fresh = 'someone-new@bayside.test';
    const before = await countUsers(t);
    const a = await register(
      t,
      signupBody(await formToken(t), { email: taken.toUpperCase() }),
      '198.51.100.40',
    );
    const b = await register(t, signupBody(await formToken(t), { email: fresh }), '198.51.100.41');
    expect(a.statusCode, a.body).toBe(200);
    expect(b.statusCode, b.body).toBe(200);
    const shape = (r: typeof a) => Object.keys(r.json().body).sort();
    expect(shape(a)).toEqual(shape(b));
    expect(a.json().body.email).toBe(taken.toUpperCase());
    await emailedCode(mail, fresh);
    const told = await eventually(async () => mailTo(mail, taken)[0]);
    expect(told.email.subject).toBe('You already have a Switchboard account');
    expect(told.email.text).toContain(`${PUBLIC_URL}/forgot-password`);
    expect(mailTo(mail, taken, CODE_SUBJECT)).toHaveLength(0);

    // Codes are refused the same way, try for try, and none opens the account or creates another.
    for (const [left, email] of [
      [4, taken],
      [4, fresh],
      [3, taken],
      [3, fresh],
    ] as const) {
      const r = await confirm(t, email, '123456', '198.51.100.42');
      expect(r.statusCode).toBe(422);
      expect(r.json().message).toBe(`That code is not right. ${left} tries left.`);
    }
    expect(await countUsers(t)).toBe(before);
  });

  it('a new form sends a new code that replaces the old; a code stops after five wrong tries and after 30 minutes', async () => {
    const email = 'codes@bayside.test';
    const ip = '198.51.100.50';
    const send = async () => (await register(t, signupBody(await formToken(t), { email }), ip)).statusCode;
    expect(await send()).toBe(200);
    const old = await emailedCode(mail, email, 1);
    expect(await send()).toBe(200);
    const code = await emailedCode(mail, email, 2);
    // The old code no longer works (a try at it counts against the new one).
    const stale = await confirm(t, email, old, ip);
    expect(stale.json().message).toBe('That code is not right. 4 tries left.');

    const wrong = code === '999999' ? '888888' : '999999';
    const guesses = await Promise.all(Array.from({ length: 8 }, () => confirm(t, email, wrong, ip)));
    expect(guesses.filter((g) => g.statusCode === 422)).toHaveLength(4);
    expect(guesses.filter((g) => g.statusCode === 429)).toHaveLength(4);
    const right = await confirm(t, email, code, ip);
    expect(right.statusCode).toBe(429);
    expect(right.json().message).toContain('Too many wrong codes');

    expect(await send()).toBe(200);
    const third = await emailedCode(mail, email, 3);
    await t.database.db
      .update(oneTimeSecrets)
      .set({ expires_at: new Date(Date.now() - 1) })
      .where(and(eq(oneTimeSecrets.target, email), isNull(oneTimeSecrets.used_at)));
    const late = await confirm(t, email, third, ip);
    expect(late.statusCode).toBe(422);
    expect(late.json().message).toBe('That code has expired. Ask for a new code.');
    const [none] = await t.database.db.select().from(users).where(eq(users.email, email));
    expect(none).toBeUndefined();

    // The expired sign-up forgets the name and password hash it was waiting to create at the next tidy-up.
    const waiting = () =>
      t.database.db
        .select({ detail: oneTimeSecrets.detail })
        .from(oneTimeSecrets)
        .where(and(eq(oneTimeSecrets.target, email), isNull(oneTimeSecrets.used_at)));
    expect(await waiting()).toEqual([{ detail: expect.anything() }]);
    await tidyExpiredSecrets(t.database.db);
    expect(await waiting()).toEqual([{ detail: null }]);
  });

  it('refuses a bot: too fast, the honeypot filled, or a forged or missing form token', async () => {
    const slow = await createTestApp({ SIGNUP_MIN_SECONDS: '30' });
    try {
      const before = await countUsers(slow);
      const tooFast = await register(slow, signupBody(await formToken(slow), { email: 'fast@bot.test' }));
      expect(tooFast.statusCode).toBe(422);
      expect(tooFast.json().message).toContain('could not accept this sign-up');
      expect(await countUsers(slow)).toBe(before);
    } finally {
      await slow.close();
    }
    const honeypot = await register(
      t,
      signupBody(await formToken(t), { email: 'pot@bot.test', website: 'http://spam' }),
    );
    expect(honeypot.statusCode).toBe(422);
    const forged = await register(t, signupBody('eyJhbGciOiJIUzI1NiJ9.e30.x', { email: 'forged@bot.test' }));
    expect(forged.statusCode).toBe(422);
    expect(forged.json().message).toContain('expired');
    const missing = await register(t, { ...signupBody('x'), form_token: undefined });
    expect(missing.statusCode).toBe(400);
  });

  it('says what is wrong with bad input and creates nothing', async () => {
    const before = await countUsers(t);
    const token = await formToken(t);
    const badMobile = await register(
      t,
      signupBody(token, { email: 'm@x.test', mobile: '123' }),
      '198.51.100.1',
    );
    expect(badMobile.statusCode).toBe(400);
    expect(badMobile.json().message).toContain('valid mobile number');
    const badZone = await register(
      t,
      signupBody(token, { email: 'z@x.test', timezone: 'Mars/Base' }),
      '198.51.100.1',
    );
    expect(badZone.statusCode).toBe(400);
    const badTracking = await register(
      t,
      signupBody(token, { email: 't@x.test', meta: { tracking: { access: 'token' } } }),
      '198.51.100.1',
    );
    expect(badTracking.statusCode).toBe(400);
    const shortPassword = await register(
      t,
      signupBody(token, { email: 'p@x.test', password: 'short' }),
      '198.51.100.1',
    );
    expect(shortPassword.statusCode).toBe(400);
    expect(shortPassword.json().message).toContain('at least 8');
    expect(await countUsers(t)).toBe(before);
  });

  it('never says on screen that an address has an account: it emails the person instead', async () => {
    const taken = DEMO_LOGINS.staff1;
    const check = (email: string) =>
      t.app.inject({
        method: 'PUT',
        url: '/api/v1/business/validators/email',
        payload: { email },
        remoteAddress: '198.51.100.9',
      });
    const a = await check(taken);
    const b = await check('nobody-yet@example.com');
    expect(a.statusCode).toBe(200);
    expect(b.statusCode).toBe(200);
    expect(a.json().body.valid).toBe(b.json().body.valid);
    const told = await eventually(async () => mail.received.find((m) => m.rcpt_to.includes(taken)));
    expect(told.email.subject).toBe('You already have a Switchboard account');
    expect(mail.received.some((m) => m.rcpt_to.includes('nobody-yet@example.com'))).toBe(false);
    expect((await check('not an email')).statusCode).toBe(422);
  });

  it('records the business whose referral link brought the sign-up; an unknown one is ignored', async () => {
    const [harbourside] = await t.database.db
      .select()
      .from(businesses)
      .where(eq(businesses.name, 'Harbourside Dental'));
    const referred = await signUp(
      t,
      mail,
      { email: 'ref@x.test', meta: { tracking: {}, referral: harbourside!.id } },
      '198.51.100.30',
    );
    const [row] = await t.database.db
      .select()
      .from(businesses)
      .where(eq(businesses.id, referred.business_id));
    expect(row!.signup_meta).toMatchObject({
      referred_by: { id: harbourside!.id, name: 'Harbourside Dental' },
    });
    const unknown = await signUp(
      t,
      mail,
      { email: 'ref2@x.test', meta: { referral: '00000000-0000-7000-8000-000000000000' } },
      '198.51.100.31',
    );
    const [other] = await t.database.db
      .select()
      .from(businesses)
      .where(eq(businesses.id, unknown.business_id));
    expect(other!.signup_meta).not.toHaveProperty('referred_by');
    const bad = await register(
      t,
      signupBody(await formToken(t), { email: 'ref3@x.test', meta: { referral: 'not a code!' } }),
      '198.51.100.32',
    );
    expect(bad.statusCode).toBe(400);

    // A new business's own link reads as its name, and a sign-up through it is credited to it.
    expect(row!.referral_code).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*-[a-z0-9]{6}$/);
    expect(row!.referral_code!.startsWith(row!.name!.toLowerCase().replace(/[^a-z0-9]+/g, '-'))).toBe(true);
    const byCode = await signUp(
      t,
      mail,
      { email: 'ref4@x.test', meta: { referral: row!.referral_code!.toUpperCase() } },
      '198.51.100.33',
    );
    const [third] = await t.database.db
      .select()
      .from(businesses)
      .where(eq(businesses.id, byCode.business_id));
    expect(third!.signup_meta).toMatchObject({ referred_by: { id: row!.id, name: row!.name } });
    expect(third!.referral_code).not.toBe(row!.referral_code);
  });

  it('limits sign-ups per IP address', async () => {
    const ip = '192.0.2.77';
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await register(
        t,
        signupBody(await formToken(t), { email: `limit${i}@x.test`, mobile: 'nope' }),
        ip,
      );
      statuses.push(res.statusCode);
    }
    // The schema refuses the bad mobile before the limit is counted; a valid body spends it.
    expect(statuses.every((s) => s === 400)).toBe(true);
    const spent: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await register(t, signupBody(await formToken(t), { email: `limit${i}@x.test` }), ip);
      spent.push(res.statusCode);
    }
    expect(spent.slice(0, 5).every((s) => s === 200)).toBe(true);
    expect(spent[5]).toBe(429);
  });

  it('a business from before codes confirms its email by link: sending is refused until then, a new link replaces an expired one, each works once', async () => {
    const { token, business_id } = await signUp(t, mail, { email: 'late@bayside.test' }, '198.51.100.20');
    // As businesses that signed up before emailed codes: created unconfirmed.
    await t.database.db
      .update(businesses)
      .set({ verified: false, verified_at: null })
      .where(eq(businesses.id, business_id));
    const links = () => mailTo(mail, 'late@bayside.test', LINK_SUBJECT);
    expect(
      (await t.request({ method: 'PUT', url: '/api/v1/business/register/resend-link', token, payload: {} }))
        .statusCode,
    ).toBe(200);
    const linkMail = await eventually(async () => links()[0]);
    expect(linkMail.email.text).not.toContain('Bayside');
    const first = linkIn(linkMail.email.text);

    // Not yet confirmed: the inbox works, sending to a customer does not.
    const location = await selectedLocation(t, token);
    const { enquiry_id } = await inbound(t, token, {
      location_id: location,
      from: { phone: '+61400111333' },
      message: 'Hi',
    });
    const refused = await t.request({
      method: 'POST',
      url: `/api/v1/enquiries/${enquiry_id}/messages`,
      token,
      payload: { message: 'Hello!' },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('email_not_verified');

    await t.database.db
      .update(oneTimeSecrets)
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where(eq(oneTimeSecrets.business_id, business_id));
    const expired = await t.request({
      method: 'PUT',
      url: '/api/v1/business/mybusiness/verify',
      payload: { secret: first },
    });
    expect(expired.statusCode).toBe(422);
    expect(expired.json().message).toContain('already been used or has expired');

    const resent = await t.request({
      method: 'PUT',
      url: '/api/v1/business/register/resend-link',
      payload: { secret: first },
    });
    expect(resent.statusCode).toBe(200);
    expect(resent.json().body).toMatchObject({ sent: true, email: 'l•••@bayside.test' });
    const second = await eventually(async () =>
      links().length === 2 ? linkIn(links()[1]!.email.text) : null,
    );
    expect(second).not.toBe(first);

    // Signed in, the banner's "resend" asks with no secret; a third link replaces the second.
    const mine = await t.request({
      method: 'PUT',
      url: '/api/v1/business/register/resend-link',
      token,
      payload: {},
    });
    expect(mine.json().body).toMatchObject({ sent: true, email: 'late@bayside.test' });
    const third = await eventually(async () =>
      links().length === 3 ? linkIn(links()[2]!.email.text) : null,
    );
    const stale = await t.request({
      method: 'PUT',
      url: '/api/v1/business/mybusiness/verify',
      payload: { secret: second },
    });
    expect(stale.statusCode).toBe(422);
    const verify = () =>
      t.request({ method: 'PUT', url: '/api/v1/business/mybusiness/verify', payload: { secret: third } });
    expect((await verify()).statusCode).toBe(200);
    // Opened twice (a second click): still fine, nothing new happens.
    expect((await verify()).statusCode).toBe(200);
    const done = await t.request({
      method: 'PUT',
      url: '/api/v1/business/register/resend-link',
      token,
      payload: {},
    });
    expect(done.json().body).toMatchObject({ sent: false, already_verified: true });
    const sent = await t.request({
      method: 'POST',
      url: `/api/v1/enquiries/${enquiry_id}/messages`,
      token,
      payload: { message: 'Hello!' },
    });
    expect(sent.statusCode, sent.body).toBe(200);

    const unknown = await t.request({
      method: 'PUT',
      url: '/api/v1/business/register/resend-link',
      payload: { secret: 'nope' },
    });
    expect(unknown.statusCode).toBe(404);
    const anonymous = await t.request({
      method: 'PUT',
      url: '/api/v1/business/register/resend-link',
      payload: {},
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('confirms a mobile number with a texted six-digit code: 10 minutes, 5 tries, resend after a minute', async () => {
    const token = await t.login(DEMO_LOGINS.staff2);
    const send = (mobile: string) =>
      t.request({
        method: 'PUT',
        url: '/api/v1/business/verification/mobile/send-code',
        token,
        payload: { mobile },
      });
    const verify = (code: string, phone = '0412 000 111') =>
      t.request({
        method: 'PUT',
        url: '/api/v1/business/verification/mobile/verify',
        token,
        payload: { phone, code },
      });

    expect((await send('12')).statusCode).toBe(422);
    const sent = await send('0412 000 111');
    expect(sent.statusCode, sent.body).toBe(200);
    const { sandbox_code: code, mobile } = sent.json().body;
    expect(mobile).toBe('+61412000111');
    expect(code).toMatch(/^\d{6}$/);
    // Only a hash is kept.
    const rows = await t.database.db.select().from(oneTimeSecrets).where(eq(oneTimeSecrets.target, mobile));
    expect(rows.some((r) => r.secret_hash.includes(code))).toBe(false);

    const again = await send('0412 000 111');
    expect(again.statusCode).toBe(429);

    const wrong = code === '000000' ? '111111' : '000000';
    expect((await verify('12345')).statusCode).toBe(400);
    const first = await verify(wrong);
    expect(first.statusCode).toBe(422);
    expect(first.json().message).toBe('That code is not right. 4 tries left.');
    const ok = await verify(code);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().body.mobile).toBe('+61412000111');
    const [person] = await t.database.db.select().from(users).where(eq(users.email, DEMO_LOGINS.staff2));
    expect(person!.mobile_verified_at).not.toBeNull();
    const replay = await verify(code);
    expect(replay.statusCode).toBe(422);
    expect(replay.json().message).toContain('no code waiting');
  });

  it('stops a code after five wrong tries, even guessed at once, and refuses an expired one', async () => {
    const token = await t.login(DEMO_LOGINS.staff1);
    const sent = await t.request({
      method: 'PUT',
      url: '/api/v1/business/verification/mobile/send-code',
      token,
      payload: { mobile: '+61 412 000 222' },
    });
    const code: string = sent.json().body.sandbox_code;
    const wrong = code === '999999' ? '888888' : '999999';
    const guesses = await Promise.all(
      Array.from({ length: 8 }, () =>
        t.request({
          method: 'PUT',
          url: '/api/v1/business/verification/mobile/verify',
          token,
          payload: { phone: '+61412000222', code: wrong },
        }),
      ),
    );
    expect(guesses.filter((g) => g.statusCode === 422)).toHaveLength(5);
    expect(guesses.filter((g) => g.statusCode === 429)).toHaveLength(3);
    const right = await t.request({
      method: 'PUT',
      url: '/api/v1/business/verification/mobile/verify',
      token,
      payload: { phone: '+61412000222', code },
    });
    expect(right.statusCode).toBe(429);

    await t.database.db
      .update(oneTimeSecrets)
      .set({ attempts: 0, expires_at: new Date(Date.now() - 1) })
      .where(eq(oneTimeSecrets.target, '+61412000222'));
    const late = await t.request({
      method: 'PUT',
      url: '/api/v1/business/verification/mobile/verify',
      token,
      payload: { phone: '+61412000222', code },
    });
    expect(late.statusCode).toBe(422);
    expect(late.json().message).toContain('expired');
  });
});

describe('mobile codes through Twilio', () => {
  let server: Server;
  const posts: URLSearchParams[] = [];
  let t: TestApp;
  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        posts.push(new URLSearchParams(body));
        res.writeHead(201, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ sid: 'SM1', status: 'queued' }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    t = await createTestApp({
      TWILIO_API_BASE: `http://127.0.0.1:${port}`,
      VERIFY_SMS_ACCOUNT_SID: 'AC123',
      VERIFY_SMS_AUTH_TOKEN: 'secret',
      VERIFY_SMS_FROM: '+61400000000',
    });
  });
  afterAll(async () => {
    await t.close();
    server.close();
  });

  it('texts the code from the configured number and never shows it on screen', async () => {
    const token = await t.login(DEMO_LOGINS.owner);
    const sent = await t.request({
      method: 'PUT',
      url: '/api/v1/business/verification/mobile/send-code',
      token,
      payload: { mobile: '0412 000 333' },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().body.sandbox_code).toBeNull();
    expect(posts).toHaveLength(1);
    expect(posts[0]!.get('To')).toBe('+61412000333');
    expect(posts[0]!.get('From')).toBe('+61400000000');
    const code = /^(\d{6}) is your Switchboard code/.exec(posts[0]!.get('Body') ?? '')?.[1];
    expect(code).toBeDefined();
    const ok = await t.request({
      method: 'PUT',
      url: '/api/v1/business/verification/mobile/verify',
      token,
      payload: { phone: '+61412000333', code },
    });
    expect(ok.statusCode).toBe(200);
  });
});
