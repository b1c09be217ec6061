import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { businesses, enquiries, enquiryNotes, invoices, queryRows } from '@switchboard/db';
import { createServerDatabase } from '@switchboard/db/testing/index';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { signStripeEvent } from '../integrations/stripe/payments.ts';
import { PUBLIC_URL } from '../modules/channels/test-support.ts';
import { demoOwner } from './demo.ts';
import { testConfig } from './helpers.ts';
import { type ServerProcess, startServerProcess } from './server-process.ts';

const WEBHOOK_SECRET = 'whsec_crash_test_secret_not_real_000000';
const ACCOUNT = 'acct_crash_test';
const INVOICES = 3;

type Paid = { invoice_id: string; enquiry_id: string; event: string };

/**
 * kill -9 right after a payment's commit (the first thing announced after it): once Stripe delivers the event
 * again, as it does until it gets a 2xx, the invoice is paid with one "paid" note in its conversation, the
 * conversation closed (the sender asked for that) and the review request queued. On both engines.
 */
describe('kill -9 while payments arrive', { timeout: 300_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-pay-crash-'));
  let db: Awaited<ReturnType<typeof createServerDatabase>>;
  let env: Record<string, string>;
  const paid: Paid[] = [];

  beforeAll(async () => {
    db = await createServerDatabase(dir);
    env = {
      ...db.env,
      PUBLIC_URL,
      STRIPE_SECRET_KEY: 'sk_test_crash',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      // Nothing here calls Stripe; a closed port makes sure of it.
      STRIPE_API_BASE: 'http://127.0.0.1:9',
    };
    const database = await db.open();
    const app = await buildApp(testConfig(env), { database });
    try {
      await app.ready();
      const owner = await demoOwner(app);
      const call = async (method: 'POST' | 'PUT' | 'PATCH', url: string, payload: object) => {
        const res = await app.inject({
          method,
          url: `/api/v1${url}`,
          payload,
          headers: { authorization: `Bearer ${owner.token}` },
        });
        expect(res.statusCode, res.body).toBe(200);
        return res.json().body;
      };
      await database.db
        .update(businesses)
        .set({ stripe_account_id: ACCOUNT, stripe_charges_enabled: true, message_limit: 100_000 })
        .where(eq(businesses.id, owner.business_id));
      const location = owner.locations[0]!;
      await call('PUT', `/business/locations/${location}/review-reminders`, {
        after_payment: true,
        after_payment_hours: 24,
      });
      await call('PATCH', `/business/locations/${location}/update-review-template`, {
        review_link: 'https://search.google.com/local/writereview?placeid=ChIJcrash',
      });
      for (let i = 0; i < INVOICES; i++) {
        const { enquiry_id } = await call('POST', '/sandbox/inbound', {
          channel: 'sms',
          location_id: location,
          from: { phone: `+614915${String(80_000 + i)}`, name: `Crash Payer ${i}` },
          message: 'Invoice please',
        });
        const invoice = await call('POST', '/business/customer-invoices', {
          enquiry_id,
          items: [{ description: 'Visit', quantity: 1, unit_price_cents: 5000 + i, tax_rate: 0 }],
        });
        await call('POST', `/business/customer-invoices/${invoice.id}/send`, { close_on_paid: true });
        paid.push({
          invoice_id: invoice.id,
          enquiry_id,
          event: JSON.stringify({
            id: `evt_crash_${i}`,
            object: 'event',
            api_version: '2026-07-29.dahlia',
            created: Math.floor(Date.now() / 1000),
            account: ACCOUNT,
            data: {
              object: {
                id: `pi_crash_${i}`,
                object: 'payment_intent',
                status: 'succeeded',
                amount: invoice.total_cents,
                amount_received: invoice.total_cents,
                currency: 'aud',
                metadata: { invoice_id: invoice.id },
              },
            },
            type: 'payment_intent.succeeded',
          }),
        });
      }
    } finally {
      await app.close();
      await database.close();
    }
  }, 240_000);

  afterAll(async () => {
    await db?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('does every follow-up of a payment when the server is killed right after its commit', async () => {
    /** Stripe's delivery of a payment's event: true when it was acknowledged (a 200). */
    const deliver = async (server: ServerProcess, p: Paid): Promise<boolean> => {
      try {
        const res = await fetch(`${server.url}/webhooks/stripe`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'stripe-signature': signStripeEvent(p.event, WEBHOOK_SECRET),
          },
          body: p.event,
        });
        return res.status === 200;
      } catch {
        // The connection died with the server: not acknowledged, so Stripe sends it again.
        return false;
      }
    };
    for (const p of paid) {
      // kill -9 the moment the payment's change is announced: after its commit, before anything else.
      const server = await startServerProcess(env, { crashOnEvent: 'invoice.updated' });
      const acknowledged = await deliver(server, p);
      await server.crash();
      expect(acknowledged, server.output()).toBe(false);
    }
    // Restarted, the server gets each event again, as Stripe retries what was not acknowledged.
    const server = await startServerProcess(env);
    for (const p of paid) expect(await deliver(server, p)).toBe(true);
    await server.stop();

    const database = await db.open();
    try {
      const ids = paid.map((p) => p.invoice_id);
      const rows = await database.db
        .select({ id: invoices.id, status: invoices.status, enquiry: enquiries.status })
        .from(invoices)
        .innerJoin(enquiries, eq(enquiries.id, invoices.enquiry_id))
        .where(inArray(invoices.id, ids));
      expect(rows).toHaveLength(INVOICES);
      for (const row of rows) {
        expect(row.status, row.id).toBe('paid');
        expect(row.enquiry, `conversation of ${row.id} closed`).toBe('closed');
      }
      const notes = await database.db
        .select({ enquiry_id: enquiryNotes.enquiry_id, n: sql<number>`count(*)::int` })
        .from(enquiryNotes)
        .where(
          and(
            inArray(
              enquiryNotes.enquiry_id,
              paid.map((p) => p.enquiry_id),
            ),
            eq(enquiryNotes.kind, 'event'),
            sql`${enquiryNotes.body} like 'Invoice % paid: %'`,
          ),
        )
        .groupBy(enquiryNotes.enquiry_id);
      const noted = new Map(notes.map((n) => [n.enquiry_id, n.n]));
      for (const p of paid) expect(noted.get(p.enquiry_id) ?? 0, `paid notes of ${p.invoice_id}`).toBe(1);
      const jobs = await queryRows<{ key: string }>(
        database.db,
        sql`select singleton_key as key from pgboss.job where name = 'review.after-payment'`,
      );
      const queued = new Set(jobs.map((j) => j.key));
      for (const p of paid) expect(queued.has(p.invoice_id), `review request of ${p.invoice_id}`).toBe(true);
    } finally {
      await database.close();
    }
  });
});
