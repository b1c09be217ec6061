import { businesses, enquiries, enquiryFacts, locations } from '@switchboard/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeMailServer, fakeMailServer } from '../../channels/email/testing.ts';
import {
  apiClient,
  createTestApp,
  DEMO_LOGINS,
  eventually,
  getMe,
  inbound,
  type TestApp,
} from '../../test/helpers.ts';
import { sweepDigests } from './digest.ts';

const MINUTE = 60_000;

describe('waiting customers: response and resolution times, and the owners’ unanswered-enquiries email', () => {
  let t: TestApp;
  let mail: FakeMailServer;
  let owner: string;
  let staff: string;
  let location: string;
  const api = (...args: Parameters<ReturnType<typeof apiClient>>) => apiClient(t)(...args);
  const factsOf = (enquiryId: string) =>
    t.database.db.select().from(enquiryFacts).where(eq(enquiryFacts.enquiry_id, enquiryId));
  const waitingSince = async (enquiryId: string) =>
    (await t.database.db.select().from(enquiries).where(eq(enquiries.id, enquiryId)))[0]!.awaiting_since;
  /** Moves an enquiry's wait back in time, as if the customer had written `minutes` ago. */
  const backdate = (enquiryId: string, minutes: number) =>
    t.database.db
      .update(enquiries)
      .set({
        awaiting_since: new Date(Date.now() - minutes * MINUTE),
        cycle_started_at: new Date(Date.now() - minutes * MINUTE),
      })
      .where(eq(enquiries.id, enquiryId));
  const mailTo = (email: string) => mail.received.filter((m) => m.rcpt_to.includes(email));

  beforeAll(async () => {
    mail = await fakeMailServer();
    t = await createTestApp({ SMTP_URL: mail.url, PUBLIC_URL: 'https://switchboard.example.com' });
    owner = await t.login(DEMO_LOGINS.owner);
    staff = await t.login(DEMO_LOGINS.staff1);
    location = (await getMe(t, owner)).businesses.find((b) => b.selected)!.locations[0]!.id;
  });
  afterAll(async () => {
    await t.close();
    await mail.stop();
  });

  it('records how long a customer waited for the first reply, and how long the enquiry stayed open', async () => {
    const { enquiry_id } = await inbound(t, owner, {
      location_id: location,
      from: { phone: '+61491570501', name: 'Wendy Wait' },
      message: 'Hello?',
    });
    expect(await waitingSince(enquiry_id)).not.toBeNull();
    // A second message does not restart the wait.
    await backdate(enquiry_id, 30);
    const before = await waitingSince(enquiry_id);
    await inbound(t, owner, { location_id: location, from: { phone: '+61491570501' }, message: 'Anyone?' });
    expect(await waitingSince(enquiry_id)).toEqual(before);

    const reply = await api('POST', `/enquiries/${enquiry_id}/messages`, staff, {
      message: 'Sorry, here now.',
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(await waitingSince(enquiry_id)).toBeNull();
    const [response] = await factsOf(enquiry_id);
    expect(response).toMatchObject({
      kind: 'response',
      channel: 'sms',
      by_assistant: false,
      location_id: location,
    });
    expect(response!.seconds).toBeGreaterThanOrEqual(30 * 60);
    expect(response!.seconds).toBeLessThan(31 * 60);
    expect(response!.user_id).toBe((await getMe(t, staff)).id);
    // The location keeps no hours: every second of the wait was in them.
    expect(response!.business_seconds).toBe(response!.seconds);

    // A second reply answers nobody waiting: no new response.
    await api('POST', `/enquiries/${enquiry_id}/messages`, staff, { message: 'Anything else?' });
    expect((await factsOf(enquiry_id)).filter((f) => f.kind === 'response')).toHaveLength(1);

    const closed = await api('PATCH', `/enquiries/${enquiry_id}`, staff, { status: 'closed' });
    expect(closed.status).toBe(200);
    const resolution = (await factsOf(enquiry_id)).find((f) => f.kind === 'resolution');
    expect(resolution!.seconds).toBeGreaterThanOrEqual(30 * 60);
    // Reopened by the customer, the next wait and the next resolution count from then.
    await inbound(t, owner, {
      location_id: location,
      from: { phone: '+61491570501' },
      message: 'One more thing',
    });
    await api('POST', `/enquiries/${enquiry_id}/messages`, staff, { message: 'Yes?' });
    const responses = (await factsOf(enquiry_id)).filter((f) => f.kind === 'response');
    expect(responses).toHaveLength(2);
    expect(responses.find((f) => f.seconds < 60)).toBeDefined();
  });

  it('counts the wait within opening hours when the location keeps them', async () => {
    // Open only 09:00–10:00 on Mondays in Melbourne: a wait from Sunday noon to Tuesday noon holds one open hour.
    const monday = { open: '09:00', close: '10:00' };
    await t.database.db
      .update(locations)
      .set({
        timezone: 'Australia/Melbourne',
        opening_hours: { sun: [], mon: [monday], tue: [], wed: [], thu: [], fri: [], sat: [] },
      })
      .where(eq(locations.id, location));
    const { enquiry_id } = await inbound(t, owner, {
      location_id: location,
      from: { phone: '+61491570502', name: 'Harry Hours' },
      message: 'When are you open?',
    });
    // Sunday 2026-03-01 12:00 in Melbourne (UTC+11) to Tuesday 2026-03-03 12:00.
    await t.database.db
      .update(enquiries)
      .set({ awaiting_since: new Date('2026-03-01T01:00:00Z') })
      .where(eq(enquiries.id, enquiry_id));
    const { recordResponse } = await import('../enquiries/facts.ts');
    const [e] = await t.database.db.select().from(enquiries).where(eq(enquiries.id, enquiry_id));
    await recordResponse(t.database.db, e!, new Date('2026-03-03T01:00:00Z'), {
      user_id: null,
      assistant: true,
    });
    const [fact] = await factsOf(enquiry_id);
    expect(fact).toMatchObject({ seconds: 48 * 3600, business_seconds: 3600, by_assistant: true });

    // With that Monday a holiday (set as the owner sets it), the same wait holds no open time at all.
    const holiday = await api('PATCH', `/business/locations/${location}`, owner, {
      holidays: [{ date: '2026-03-02', name: 'Closed for stocktake' }],
    });
    expect(holiday.status).toBe(200);
    const second = await inbound(t, owner, {
      location_id: location,
      from: { phone: '+61491570509', name: 'Holly Holiday' },
      message: 'Anyone there?',
    });
    await t.database.db
      .update(enquiries)
      .set({ awaiting_since: new Date('2026-03-01T01:00:00Z') })
      .where(eq(enquiries.id, second.enquiry_id));
    const [e2] = await t.database.db.select().from(enquiries).where(eq(enquiries.id, second.enquiry_id));
    await recordResponse(t.database.db, e2!, new Date('2026-03-03T01:00:00Z'), {
      user_id: null,
      assistant: true,
    });
    expect((await factsOf(second.enquiry_id))[0]).toMatchObject({ seconds: 48 * 3600, business_seconds: 0 });
    await t.database.db
      .update(locations)
      .set({ opening_hours: null, holidays: [] })
      .where(eq(locations.id, location));
  });

  it('emails an owner who asked the enquiries no one answered in time, each once', async () => {
    const ownerEmail = DEMO_LOGINS.owner;
    expect((await api('PATCH', '/user/me', staff, { digest_minutes: 15 })).status).toBe(403);
    expect((await api('PATCH', '/user/me', owner, { digest_minutes: 2 })).status).toBe(400);
    const on = await api('PATCH', '/user/me', owner, { digest_minutes: 15 });
    expect(on.status).toBe(200);
    expect(on.body.body.digest_minutes).toBe(15);

    const late = await inbound(t, owner, {
      location_id: location,
      from: { phone: '+61491570503', name: 'Lena Late' },
      message: 'Still waiting',
    });
    const recent = await inbound(t, owner, {
      location_id: location,
      from: { phone: '+61491570504', name: 'Rita Recent' },
      message: 'Just wrote',
    });
    await backdate(late.enquiry_id, 20);
    // Earlier tests' enquiries may wait too; only this one is checked by name.
    expect(await sweepDigests(t.app)).toBe(1);
    const sent = await eventually(async () => mailTo(ownerEmail).at(-1));
    const text = sent.email.text ?? '';
    expect(text).toContain('Lena Late');
    expect(text).toContain(`https://switchboard.example.com/inbox/${late.enquiry_id}`);
    expect(text).not.toContain('Rita Recent');

    // Nothing new has passed the mark: no second email.
    const count = mailTo(ownerEmail).length;
    expect(await sweepDigests(t.app)).toBe(0);
    // Rita's wait passes the mark a little later: she alone is in the next one.
    await backdate(recent.enquiry_id, 14);
    expect(await sweepDigests(t.app)).toBe(0);
    expect(await sweepDigests(t.app, new Date(Date.now() + 2 * MINUTE))).toBe(1);
    const next = await eventually(async () =>
      mailTo(ownerEmail).length > count ? mailTo(ownerEmail).at(-1) : null,
    );
    expect(next.email.text).toContain('Rita Recent');
    expect(next.email.text).not.toContain('Lena Late');

    // Turned off: nothing more.
    await api('PATCH', '/user/me', owner, { digest_minutes: null });
    await backdate(recent.enquiry_id, 60);
    expect(await sweepDigests(t.app, new Date(Date.now() + 5 * MINUTE))).toBe(0);
  });

  it('emails nobody for a business whose email is not confirmed, and quotes customers’ names as theirs', async () => {
    const me = await getMe(t, owner);
    const businessId = me.businesses.find((b) => b.selected)!.id;
    await api('PATCH', '/user/me', owner, { digest_minutes: 15 });
    const odd = await inbound(t, owner, {
      location_id: location,
      from: { phone: '+61491570519', name: 'Ola\n\nClick here to pay' },
      message: 'Anyone there?',
    });
    await backdate(odd.enquiry_id, 10);
    await t.database.db.update(businesses).set({ verified: false }).where(eq(businesses.id, businessId));
    try {
      expect(await sweepDigests(t.app, new Date(Date.now() + 10 * MINUTE))).toBe(0);
    } finally {
      await t.database.db.update(businesses).set({ verified: true }).where(eq(businesses.id, businessId));
    }
    const count = mailTo(DEMO_LOGINS.owner).length;
    expect(await sweepDigests(t.app, new Date(Date.now() + 10 * MINUTE))).toBe(1);
    const sent = await eventually(async () =>
      mailTo(DEMO_LOGINS.owner).length > count ? mailTo(DEMO_LOGINS.owner).at(-1) : null,
    );
    expect(sent.email.text).toMatch(/^- “[^”\n]*Click here to pay” \(/m);
    expect(sent.email.text).not.toMatch(/^Click here/m);
    await api('PATCH', '/user/me', owner, { digest_minutes: null });
  });
});
