import { businesses, queryRows } from '@switchboard/db';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeMailServer, fakeMailServer } from '../../channels/email/testing.ts';
import { systemMail } from '../../jobs/definitions/system-mail.ts';
import {
  apiClient,
  createTestApp,
  DEMO_LOGINS,
  DEMO_PASSWORD,
  eventually,
  type Json,
  jobsSettled,
  type TestApp,
} from '../../test/helpers.ts';
import { EXPIRED_SECRETS_KEPT_MS, tidyExpiredSecrets } from '../signup/secrets.ts';

describe('inviting and removing team members', () => {
  let t: TestApp;
  let mail: FakeMailServer;
  let owner: string;
  let staff: string;
  const api = (...args: Parameters<ReturnType<typeof apiClient>>) => apiClient(t)(...args);
  const linkTo = async (email: string, n = 1) => {
    const found = await eventually(async () => {
      const all = mail.received.filter((m) => m.rcpt_to.some((r) => r.toLowerCase() === email.toLowerCase()));
      return all.length >= n ? all[n - 1] : null;
    });
    const secret = /\/signup\/invite\?secret=([\w-]+)/.exec(found.email.text ?? '')?.[1];
    if (!secret) throw new Error('no invitation link');
    return secret;
  };
  beforeAll(async () => {
    mail = await fakeMailServer();
    t = await createTestApp({ SMTP_URL: mail.url, PUBLIC_URL: 'https://switchboard.example.com' });
    owner = await t.login(DEMO_LOGINS.owner);
    staff = await t.login(DEMO_LOGINS.staff1);
  });
  afterAll(async () => {
    await t.close();
    await mail.stop();
  });

  it('emails a new person a link; they set a password and are in the team, signed in', async () => {
    expect((await api('POST', '/business/members/invitations', staff, { email: 'x@y.test' })).status).toBe(
      403,
    );
    expect(
      (await api('POST', '/business/members/invitations', owner, { email: 'not an email' })).status,
    ).toBe(400);
    expect(
      (await api('POST', '/business/members/invitations', owner, { email: DEMO_LOGINS.staff2 })).status,
    ).toBe(409);
    const sent = await api('POST', '/business/members/invitations', owner, {
      email: 'New.Person@Example.com',
      full_name: 'Nia New',
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const pending = await api('GET', '/business/members/invitations', owner);
    expect(pending.body.body.items).toMatchObject([
      { email: 'new.person@example.com', role: 'staff', invited_by: 'Olivia Harbour' },
    ]);
    const secret = await linkTo('New.Person@Example.com');
    const preview = await api('GET', `/business/invitations/${secret}`);
    expect(preview.body.body).toMatchObject({
      business_name: 'Harbourside Dental',
      has_account: false,
      role: 'staff',
      // The name the owner typed, for the form to start from.
      full_name: 'Nia New',
    });
    expect(
      (
        await api('POST', `/business/invitations/${secret}/accept`, undefined, {
          full_name: 'Nia',
          password: 'short',
        })
      ).status,
    ).toBe(422);
    const joined = await api('POST', `/business/invitations/${secret}/accept`, undefined, {
      full_name: 'Nia New',
      password: 'long enough pw',
    });
    expect(joined.status, JSON.stringify(joined.body)).toBe(200);
    const me = await api('GET', '/user/me', joined.body.body.token);
    expect(me.body.body.businesses.find((b: Json) => b.selected)).toMatchObject({
      name: 'Harbourside Dental',
      role: 'staff',
    });
    // Used once; opened again, the link says it was used and to log in.
    expect(
      (
        await api('POST', `/business/invitations/${secret}/accept`, undefined, {
          full_name: 'Nia',
          password: 'long enough pw',
        })
      ).status,
    ).toBe(404);
    const again = await api('GET', `/business/invitations/${secret}`);
    expect(again.status).toBe(404);
    expect(again.body.message).toBe(
      'This invitation was used already. Log in with the email address it was sent to.',
    );
    expect((await api('GET', '/business/members/invitations', owner)).body.body.items).toHaveLength(0);
  });

  it('the email speaks in fixed words: nothing the inviter typed in its subject, all of it quoted as theirs', async () => {
    const [harbourside] = await t.database.db
      .select()
      .from(businesses)
      .where(eq(businesses.name, 'Harbourside Dental'));
    // What an outsider would type to make the email say something of theirs.
    await t.database.db
      .update(businesses)
      .set({ name: 'Harbourside\n\nYour account is locked. Call 1800 000 000' })
      .where(eq(businesses.id, harbourside!.id));
    try {
      const sent = await api('POST', '/business/members/invitations', owner, {
        email: 'quoted@example.com',
        full_name: 'Quinn "the" Quoted',
      });
      expect(sent.status, JSON.stringify(sent.body)).toBe(200);
      const received = await eventually(async () =>
        mail.received.find((m) => m.rcpt_to.includes('quoted@example.com')),
      );
      expect(received.email.subject).toBe("You're invited to join a team on Switchboard");
      const text = received.email.text ?? '';
      expect(text).toContain('The person who invited you wrote these details themselves');
      expect(text).toContain('  Business: “Harbourside Your account is locked. Call 1800 000 000”');
      expect(text).toContain('  Invited by: “Olivia Harbour”');
      expect(text).toContain("  Your name: “Quinn 'the' Quoted”");
      expect(text).not.toMatch(/^Your account is locked/m);
      expect(text).not.toContain('Hi Quinn');
      expect(received.email.html).toBeFalsy();
    } finally {
      await t.database.db
        .update(businesses)
        .set({ name: 'Harbourside Dental' })
        .where(eq(businesses.id, harbourside!.id));
    }
  });

  it('sends no invitation until the business’s own email is confirmed, and says how to confirm it', async () => {
    const north = await t.login(DEMO_LOGINS.northsideOwner);
    const [northside] = await t.database.db
      .select()
      .from(businesses)
      .where(eq(businesses.name, 'Northside Plumbing'));
    await t.database.db.update(businesses).set({ verified: false }).where(eq(businesses.id, northside!.id));
    try {
      const refused = await api('POST', '/business/members/invitations', north, {
        email: 'stranger@example.com',
        full_name: 'Sam Stranger',
      });
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe('email_not_verified');
      expect(refused.body.message).toMatch(/^Confirm your email first/);
      expect((await api('GET', '/business/members/invitations', north)).body.body.items).toHaveLength(0);
    } finally {
      await t.database.db.update(businesses).set({ verified: true }).where(eq(businesses.id, northside!.id));
    }
    expect(
      (await api('POST', '/business/members/invitations', north, { email: 'stranger@example.com' })).status,
    ).toBe(200);
    await eventually(async () => mail.received.find((m) => m.rcpt_to.includes('stranger@example.com')));
    // Only the one sent after the confirmation arrived.
    await new Promise((r) => setTimeout(r, 500));
    expect(mail.received.filter((m) => m.rcpt_to.includes('stranger@example.com'))).toHaveLength(1);
  });

  it('an existing account joins with its own password; a withdrawn invitation stops working', async () => {
    await api('POST', '/business/members/invitations', owner, {
      email: DEMO_LOGINS.northsideOwner,
      role: 'owner',
    });
    const secret = await linkTo(DEMO_LOGINS.northsideOwner);
    expect((await api('GET', `/business/invitations/${secret}`)).body.body.has_account).toBe(true);
    const wrong = await api('POST', `/business/invitations/${secret}/accept`, undefined, {
      password: 'guess',
    });
    expect(wrong.status).toBe(422);
    const ok = await api('POST', `/business/invitations/${secret}/accept`, undefined, {
      password: DEMO_PASSWORD,
    });
    expect(ok.status).toBe(200);
    const members = await api('GET', '/business/members', owner);
    expect(members.body.body.items.find((m: Json) => m.email === DEMO_LOGINS.northsideOwner).role).toBe(
      'owner',
    );

    await api('POST', '/business/members/invitations', owner, { email: 'later@example.com' });
    const [inv] = (await api('GET', '/business/members/invitations', owner)).body.body.items;
    const withdrawnSecret = await linkTo('later@example.com');
    expect((await api('DELETE', `/business/members/invitations/${inv.id}`, owner)).status).toBe(200);
    expect((await api('GET', `/business/invitations/${withdrawnSecret}`)).status).toBe(404);
    const north = await t.login(DEMO_LOGINS.northsideOwner, { BID: '' });
    // Another business's owner cannot withdraw this business's invitations (its own selected business has none).
    expect((await api('DELETE', `/business/members/invitations/${inv.id}`, north)).status).toBe(404);
  });

  it('keeps an invitation link in the job queue only until its email is sent, and tidies expired links away', async () => {
    const sent = await api('POST', '/business/members/invitations', owner, {
      email: 'brief.stay@example.com',
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const secret = await linkTo('brief.stay@example.com');
    await jobsSettled(t, systemMail, { data: { to: 'brief.stay@example.com' } });
    const holding = sql`select count(*)::int as n from pgboss.job where data::text like ${`%${secret}%`}`;
    const [before] = await queryRows<{ n: number }>(t.app.db, holding);
    expect(before?.n).toBe(1);
    // A minute after it was sent, as far as the queue's housekeeping can tell.
    await t.app.db.execute(
      sql`update pgboss.job set completed_on = now() - interval '2 minutes' where data::text like ${`%${secret}%`}`,
    );
    // The queue's housekeeping runs at most once per interval: a pass the background supervisor made a moment
    // ago would make this one a no-op, so its claim is cleared first.
    await t.app.db.execute(sql`update pgboss.queue set maintain_on = null where name = ${systemMail.name}`);
    await t.app.jobs.boss.supervise(systemMail.name);
    const [after] = await queryRows<{ n: number }>(t.app.db, holding);
    expect(after?.n).toBe(0);

    // The invitation itself still works until its time is up; a week past it, its row goes.
    expect((await api('GET', `/business/invitations/${secret}`)).status).toBe(200);
    const rows = sql`select count(*)::int as n from one_time_secrets where target = 'brief.stay@example.com'`;
    const weekAfterExpiry = new Date(Date.now() + 7 * 86_400_000 + EXPIRED_SECRETS_KEPT_MS + 60_000);
    await tidyExpiredSecrets(t.app.db, new Date(weekAfterExpiry.getTime() - 120_000));
    expect((await queryRows<{ n: number }>(t.app.db, rows))[0]?.n).toBe(1);
    await tidyExpiredSecrets(t.app.db, weekAfterExpiry);
    expect((await queryRows<{ n: number }>(t.app.db, rows))[0]?.n).toBe(0);
  });

  it('removing someone ends their sessions at once; the owner cannot be removed', async () => {
    const victim = await t.login(DEMO_LOGINS.staff2);
    expect((await api('GET', '/user/me', victim)).status).toBe(200);
    const list = await api('GET', '/business/members', owner);
    const staff2 = list.body.body.items.find((m: Json) => m.email === DEMO_LOGINS.staff2);
    expect((await api('DELETE', `/business/members/${staff2.user_id}`, staff)).status).toBe(403);
    expect((await api('DELETE', `/business/members/${staff2.user_id}`, owner)).status).toBe(200);
    expect((await api('GET', '/user/me', victim)).status).toBe(401);
    const ownerId = list.body.body.items.find((m: Json) => m.email === DEMO_LOGINS.owner).user_id;
    expect((await api('DELETE', `/business/members/${ownerId}`, owner)).status).toBe(422);
    expect(
      (await api('DELETE', '/business/members/00000000-0000-7000-8000-000000000000', owner)).status,
    ).toBe(404);
    const log = await api('GET', '/business/audit-log', owner);
    expect(log.body.body.items.map((e: Json) => e.action)).toEqual(
      expect.arrayContaining(['member.remove', 'member.invite', 'member.join', 'member.invite.revoke']),
    );
  });
});

describe('limits on invitation emails', () => {
  let t: TestApp;
  let mail: FakeMailServer;
  beforeAll(async () => {
    mail = await fakeMailServer();
    t = await createTestApp({ SMTP_URL: mail.url });
  });
  afterAll(async () => {
    await t.close();
    await mail.stop();
  });
  const inviteFrom = (token: string, ip: string, email: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/business/members/invitations',
      headers: { authorization: `Bearer ${token}` },
      payload: { email },
      remoteAddress: ip,
    });

  it('per person inviting, per business and per network, each a 429 that says which and when to try again', async () => {
    const owner = await t.login(DEMO_LOGINS.owner);
    const admin = await t.login(DEMO_LOGINS.admin);
    const north = await t.login(DEMO_LOGINS.northsideOwner);
    const send = async (token: string, ip: string, n: number, tag: string) => {
      const statuses: number[] = [];
      for (let i = 0; i < n; i++)
        statuses.push((await inviteFrom(token, ip, `${tag}${i}@example.com`)).statusCode);
      return statuses;
    };

    // One person: 20 an hour.
    expect(new Set(await send(owner, '192.0.2.1', 20, 'a'))).toEqual(new Set([200]));
    const mine = await inviteFrom(owner, '192.0.2.2', 'a20@example.com');
    expect(mine.statusCode).toBe(429);
    expect(mine.json().message).toMatch(
      /^Too many invitations from your account\. Please try again in \d+ minutes?\.$/,
    );
    expect(Number(mine.headers['retry-after'])).toBeGreaterThan(0);

    // One business: 30 an hour, whoever sends them (an administrator inside it here).
    expect(new Set(await send(admin, '192.0.2.3', 10, 'b'))).toEqual(new Set([200]));
    const business = await inviteFrom(admin, '192.0.2.3', 'b10@example.com');
    expect(business.statusCode).toBe(429);
    expect(business.json().message).toMatch(/^Too many invitations from this business\./);

    // One network: 30 an hour, across businesses (192.0.2.3 has sent 11).
    expect(new Set(await send(north, '192.0.2.3', 19, 'c'))).toEqual(new Set([200]));
    const network = await inviteFrom(north, '192.0.2.3', 'c19@example.com');
    expect(network.statusCode).toBe(429);
    expect(network.json().message).toMatch(/^Too many invitations from this network\./);
    expect((await inviteFrom(north, '192.0.2.4', 'c19@example.com')).statusCode).toBe(200);
  });
});
