import { invoices } from '@switchboard/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DEMO_LOGINS, inbound, selectedLocation, type TestApp } from '../../test/helpers.ts';
import { dueReminder, sweepInvoiceReminders } from './sending.ts';

describe('dueReminder', () => {
  const settings = { before: 3, after: [1, 7] };
  it('is due once from N days before the due date', () => {
    expect(dueReminder('2026-12-06', '2026-12-10', settings, [])).toBeNull();
    expect(dueReminder('2026-12-07', '2026-12-10', settings, [])).toEqual({
      key: 'before:3',
      covers: ['before:3'],
    });
    expect(dueReminder('2026-12-09', '2026-12-10', settings, ['before:3'])).toBeNull();
    expect(dueReminder('2026-12-09', '2026-12-10', { before: null, after: [1] }, [])).toBeNull();
  });
  it('after the due date sends only the latest reminder due, covering the earlier ones', () => {
    expect(dueReminder('2026-12-10', '2026-12-10', settings, [])).toBeNull();
    expect(dueReminder('2026-12-11', '2026-12-10', settings, [])).toEqual({
      key: 'after:1',
      covers: ['after:1'],
    });
    expect(dueReminder('2026-12-20', '2026-12-10', settings, [])).toEqual({
      key: 'after:7',
      covers: ['after:1', 'after:7'],
    });
    expect(dueReminder('2026-12-30', '2026-12-10', settings, ['after:1', 'after:7'])).toBeNull();
  });
});

describe('invoice reminders', () => {
  let t: TestApp;
  let staff: string;
  let enquiryId: string;
  beforeAll(async () => {
    t = await createTestApp();
    const owner = await t.login(DEMO_LOGINS.owner);
    staff = await t.login(DEMO_LOGINS.staff1);
    const loc = await selectedLocation(t, owner);
    ({ enquiry_id: enquiryId } = await inbound(t, owner, {
      location_id: loc,
      from: { phone: '+61491570444', name: 'Kim Lee' },
      message: 'Thanks!',
    }));
  });
  afterAll(() => t.close());

  it('marks an unpaid invoice overdue and reminds once, only within sending hours', async () => {
    const created = await t.request({
      method: 'POST',
      url: '/api/v1/business/customer-invoices',
      token: staff,
      payload: {
        enquiry_id: enquiryId,
        items: [{ description: 'Filling', quantity: 1, unit_price_cents: 15000, tax_rate: 0 }],
        due_date: '2026-12-01',
      },
    });
    const inv = created.json().body;
    await t.request({
      method: 'POST',
      url: `/api/v1/business/customer-invoices/${inv.id}/send`,
      token: staff,
      payload: {},
    });
    const reminders = async () =>
      (
        (
          await t.request({ method: 'GET', url: `/api/v1/enquiries/${enquiryId}/messages`, token: staff })
        ).json().body.items as { message: string; meta: { auto?: string } }[]
      ).filter((m) => m.meta.auto === 'invoice_reminder');

    // 22:30 in Melbourne on 2 Dec: overdue now, but no message at night.
    await sweepInvoiceReminders(t.app, new Date('2026-12-02T11:30:00Z'));
    const [night] = await t.app.db.select().from(invoices).where(eq(invoices.id, inv.id));
    expect(night!.status).toBe('overdue');
    expect(await reminders()).toHaveLength(0);

    // 09:30 the next morning: the reminder goes, once, however often the sweep runs.
    await sweepInvoiceReminders(t.app, new Date('2026-12-02T22:30:00Z'));
    await sweepInvoiceReminders(t.app, new Date('2026-12-02T23:30:00Z'));
    const sent = await reminders();
    expect(sent).toHaveLength(1);
    expect(sent[0]!.message).toBe(
      `Hi Kim, a reminder that invoice ${inv.number} from Harbourside Dental for $150.00 was due on 1 Dec 2026. Pay here: ${inv.pay_url}`,
    );
    // A week on, the second reminder; then nothing more.
    await sweepInvoiceReminders(t.app, new Date('2026-12-08T23:30:00Z'));
    await sweepInvoiceReminders(t.app, new Date('2026-12-20T23:30:00Z'));
    expect(await reminders()).toHaveLength(2);
  });
});
