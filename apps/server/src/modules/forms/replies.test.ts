import { messages } from '@switchboard/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeMailServer, fakeMailServer } from '../../channels/email/testing.ts';
import { createTestApp, DEMO_LOGINS, eventually, type TestApp } from '../../test/helpers.ts';

type Msg = typeof messages.$inferSelect;

/** What the web form webhook and a staff reply need in every case below. */
function formSteps(t: () => TestApp, token: () => string) {
  const path = async () => {
    const res = await t().request({
      method: 'GET',
      url: '/api/v1/business/mybusiness/web-form-webhook',
      token: token(),
    });
    return new URL(res.json().body.url).pathname;
  };
  return {
    /** A visitor fills in the website's form; answers the enquiry it opened. */
    async submit(fields: Record<string, string>): Promise<string> {
      const res = await t().request({ method: 'POST', url: await path(), payload: fields });
      expect(res.statusCode, res.body).toBe(200);
      const [m] = await t().database.db.select().from(messages).where(eq(messages.message, fields.message!));
      return m!.enquiry_id;
    },
    async reply(enquiryId: string, text: string): Promise<string> {
      const res = await t().request({
        method: 'POST',
        url: `/api/v1/enquiries/${enquiryId}/messages`,
        token: token(),
        payload: { message: text },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().body.id as string;
    },
    settled: (id: string, status: 'sent' | 'failed') =>
      eventually(async () => {
        const [m] = await t().database.db.select().from(messages).where(eq(messages.id, id));
        return m?.status === status && (m as Msg);
      }, 25_000),
    async route(enquiryId: string) {
      const res = await t().request({
        method: 'GET',
        url: `/api/v1/enquiries/${enquiryId}/reply-route`,
        token: token(),
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().body as { route: string; detail: string | null };
    },
  };
}

describe('a form is answered by email, to the address left on it', () => {
  let t: TestApp;
  let remote: FakeMailServer;
  let staff: string;
  const steps = formSteps(
    () => t,
    () => staff,
  );

  beforeAll(async () => {
    remote = await fakeMailServer();
    // Outside the sandbox: only a real channel may carry the reply.
    t = await createTestApp({ SMTP_PORT: '0', SMTP_URL: remote.url, SANDBOX_MODE: 'false' });
    staff = await t.login(DEMO_LOGINS.owner);
  }, 120_000);
  beforeEach(() => {
    remote.mode = 'accept';
    remote.received.length = 0;
  });
  afterAll(async () => {
    await t?.close();
    await remote?.stop();
  });

  it('sends the reply by email with a subject the person recognises, and says so before it is written', async () => {
    const enquiry = await steps.submit({
      name: 'Farah Form',
      email: 'farah@example.com',
      message: `Do you see children on Saturdays? ${Date.now()}`,
    });
    expect(await steps.route(enquiry)).toEqual({
      route: 'channel',
      detail: 'A reply to a form goes by email to farah@example.com.',
    });

    const sent = await steps.settled(await steps.reply(enquiry, 'Yes, from 9 to 12.'), 'sent');
    expect(sent.channel).toBe('web_form');
    expect(sent.provider).toBe('email');
    expect(sent.meta).toMatchObject({ delivered_via: 'email', email_to: 'farah@example.com' });
    expect(remote.received).toHaveLength(1);
    const mail = remote.received[0]!;
    expect(mail.rcpt_to).toEqual(['farah@example.com']);
    expect(mail.email.subject).toBe('Your enquiry to Harbourside Dental Docklands');
    expect(mail.email.text?.trim()).toBe('Yes, from 9 to 12.');
  });

  it('keeps the subject the person gave on the form', async () => {
    const enquiry = await steps.submit({
      email: 'gus@example.com',
      subject: 'Crown quote',
      message: `How much is a crown? ${Date.now()}`,
    });
    await steps.settled(await steps.reply(enquiry, 'From $1,400.'), 'sent');
    expect(remote.received[0]!.email.subject).toBe('Crown quote');
  });

  it('fails, saying why, when the person left only a phone number, and the composer says to call or text', async () => {
    const enquiry = await steps.submit({ phone: '+61491570077', message: `Call me back ${Date.now()}` });
    expect((await steps.route(enquiry)).detail).toBe(
      'This person left no email address on the form: call or text them at +61491570077.',
    );
    const failed = await steps.settled(await steps.reply(enquiry, 'Hello!'), 'failed');
    expect(failed.error).toBe('This person left no email address on the form to answer.');
    expect(remote.received).toHaveLength(0);
  });
});

describe('a form on a server without email', () => {
  let t: TestApp;
  let staff: string;
  const steps = formSteps(
    () => t,
    () => staff,
  );

  beforeAll(async () => {
    t = await createTestApp({ SMTP_PORT: '0', SANDBOX_MODE: 'false' });
    staff = await t.login(DEMO_LOGINS.owner);
  }, 120_000);
  afterAll(() => t?.close());

  it('says so in the composer and on the failed reply, never "no web_form account"', async () => {
    const enquiry = await steps.submit({ email: 'hana@example.com', message: `Hi there ${Date.now()}` });
    const expected = 'Email is not set up on this server, so a form cannot be answered by email yet.';
    expect((await steps.route(enquiry)).detail).toBe(expected);
    const failed = await steps.settled(await steps.reply(enquiry, 'Hello!'), 'failed');
    expect(failed.error).toBe(expected);
  });
});
