import { auditLog } from '@switchboard/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DEMO_LOGINS, namedIn, type TestApp } from '../../test/helpers.ts';

describe('POST /feedback', () => {
  let t: TestApp;
  let staff: string;
  const feedbackRows = () => t.database.db.select().from(auditLog).where(eq(auditLog.action, 'feedback'));

  beforeAll(async () => {
    t = await createTestApp();
    staff = await t.login(DEMO_LOGINS.staff1);
  });
  afterAll(() => t.close());

  it('keeps the report with who sent it, from which business and browser', async () => {
    const payload = {
      error_code: '400-0f7c2a3e-1b7c-4a8e-9d61-6a7a5bf0c1d2',
      debug_code: 'enquiries.list',
      message: 'The inbox went blank after I filtered by SMS.',
      path: '/inbox?status=open&mode=report-error',
    };
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/feedback',
      token: staff,
      headers: { 'user-agent': 'Mozilla/5.0 (Test) Switchboard' },
      payload,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ body: { received: true } });
    const me = (await t.request({ method: 'GET', url: '/api/v1/user/me', token: staff })).json().body;
    const rows = await feedbackRows();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      user_id: me.id,
      business_id: me.businesses[0].id,
      detail: { ...payload, user_agent: 'Mozilla/5.0 (Test) Switchboard' },
    });
  });

  it('needs only a message', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/feedback',
      token: staff,
      payload: { message: 'Love the new dialer.' },
    });
    expect(res.statusCode).toBe(200);
    expect(await feedbackRows()).toHaveLength(2);
  });

  it.each([
    ['a missing message', {}, /message/],
    ['a blank message', { message: '   ' }, /message/],
    ['a message over 5000 characters', { message: 'x'.repeat(5001) }, /message/],
    ['an error code over 200 characters', { message: 'Hi', error_code: 'e'.repeat(201) }, /error_code/],
    ['a debug code of the wrong type', { message: 'Hi', debug_code: 12 }, /debug_code/],
    ['a path over 2000 characters', { message: 'Hi', path: `/${'p'.repeat(2000)}` }, /path/],
    ['an unknown field', { message: 'Hi', severity: 'high' }, /severity/],
  ])('refuses %s with 400 naming the field, and stores nothing', async (_, payload, field) => {
    const before = (await feedbackRows()).length;
    const res = await t.request({ method: 'POST', url: '/api/v1/feedback', token: staff, payload });
    expect(res.statusCode).toBe(400);
    expect(namedIn(res.json())).toMatch(field);
    expect(await feedbackRows()).toHaveLength(before);
  });

  it('needs a login', async () => {
    const res = await t.request({ method: 'POST', url: '/api/v1/feedback', payload: { message: 'Hi' } });
    expect(res.statusCode).toBe(401);
  });
});
