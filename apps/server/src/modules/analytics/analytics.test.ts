import {
  calls,
  customers,
  enquiries,
  enquiryFacts,
  invoiceRefunds,
  invoices,
  messages,
  reviewRequests,
} from '@switchboard/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, createTestApp, DEMO_LOGINS, getMe, type Json, type TestApp } from '../../test/helpers.ts';

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2_147_483_648;
    return s / 2_147_483_648;
  };
}

// October 2026 in Melbourne: 00:00 on the 1st is 14:00 UTC on 30 September (AEST, +10); daylight saving starts
// on the 4th, so the end of the 31st is 12:59:59.999 UTC (AEDT, +11). The period before is as long, just before.
const FROM = Date.parse('2026-09-30T14:00:00Z');
const TO = Date.parse('2026-10-31T13:00:00Z');
const PREVIOUS_FROM = FROM - (TO - FROM);
const CHANNELS = ['sms', 'email', 'widget', 'facebook'];
const SOURCES = ['google', 'facebook', null];
const CAMPAIGNS = ['spring', null];

/** The day an instant falls on in Melbourne, by the platform's own time zone data. */
const melbourneDay = (ms: number) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Australia/Melbourne' }).format(new Date(ms));

/** percentile_cont: linear interpolation between the ordered values. */
function percentile(values: number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = p * (sorted.length - 1);
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  return Math.round(sorted[low]! + (sorted[high]! - sorted[low]!) * (rank - low));
}

describe('analytics', () => {
  let t: TestApp;
  let owner: string;
  let businessId: string;
  let locationIds: string[];
  const generated: {
    at: number;
    channel: string;
    source: string | null;
    campaign: string | null;
    location: string;
  }[] = [];
  const callsMade: { at: number; direction: 'in' | 'out'; status: string; taken: boolean }[] = [];
  const responses: { at: number; seconds: number; business: number; assistant: boolean }[] = [];
  const reviewsMade: { at: number; status: 'sent' | 'clicked' | 'failed'; location: string | null }[] = [];
  const invoicesMade: {
    sent: number;
    paid: number | null;
    currency: string;
    total: number;
    location: string | null;
    voided: boolean;
    refund: { at: number; cents: number } | null;
  }[] = [];
  const api = (...args: Parameters<ReturnType<typeof apiClient>>) => apiClient(t)(...args);
  const query = 'start=2026-10-01&end=2026-10-31&timezone=Australia/Melbourne';

  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.login(DEMO_LOGINS.owner);
    const me = await getMe(t, owner);
    const business = me.businesses.find((b) => b.selected)!;
    businessId = business.id;
    locationIds = business.locations.map((l) => l.id);
    const ownerId = me.id;
    const next = random(17);
    const db = t.database.db;
    // 400 enquiries over both periods and a little beyond either end, each with one message; a call for every
    // fourth, and a recorded reply for every third.
    for (let i = 0; i < 400; i++) {
      const at = PREVIOUS_FROM - 86_400_000 + Math.floor(next() * (TO - PREVIOUS_FROM + 2 * 86_400_000));
      const row = {
        at,
        channel: CHANNELS[Math.floor(next() * CHANNELS.length)]!,
        source: SOURCES[Math.floor(next() * SOURCES.length)]!,
        campaign: CAMPAIGNS[Math.floor(next() * CAMPAIGNS.length)]!,
        location: locationIds[Math.floor(next() * locationIds.length)]!,
      };
      generated.push(row);
      const [c] = await db
        .insert(customers)
        .values({
          business_id: businessId,
          name: `Generated ${i}`,
          phone: `+6149157${String(1000 + i).padStart(4, '0')}`,
        })
        .returning();
      const [e] = await db
        .insert(enquiries)
        .values({
          business_id: businessId,
          location_id: row.location,
          customer_id: c!.id,
          channel: row.channel,
          source: row.source,
          campaign: row.campaign,
          status: 'open',
          created_at: new Date(at),
          last_message_at: new Date(at),
        })
        .returning();
      const [m] = await db
        .insert(messages)
        .values({
          business_id: businessId,
          enquiry_id: e!.id,
          customer_id: c!.id,
          channel: row.channel,
          direction: 'in',
          message: 'generated',
          status: 'received',
          created_at: new Date(at),
        })
        .returning();
      if (i % 4 === 0) {
        const call = {
          at,
          direction: next() < 0.7 ? ('in' as const) : ('out' as const),
          status: ['completed', 'no-answer', 'busy'][Math.floor(next() * 3)]!,
          taken: next() < 0.5,
        };
        callsMade.push(call);
        await db.insert(calls).values({
          business_id: businessId,
          location_id: row.location,
          enquiry_id: e!.id,
          message_id: m!.id,
          customer_id: c!.id,
          user_id: call.direction === 'in' && call.taken ? ownerId : null,
          direction: call.direction,
          from_number: '+61491570000',
          to_number: '+61491570156',
          status: call.status,
          provider: 'sandbox',
          provider_call_sid: `CA${i}`,
          created_at: new Date(at),
        });
      }
      if (i % 5 === 0) {
        const review = {
          at,
          status: (['sent', 'clicked', 'failed'] as const)[Math.floor(next() * 3)]!,
          // A few whose location was deleted since: counted only over every location.
          location: i % 25 === 0 ? null : row.location,
        };
        reviewsMade.push(review);
        await db.insert(reviewRequests).values({
          business_id: businessId,
          location_id: review.location,
          customer_id: c!.id,
          enquiry_id: e!.id,
          token: `review-${i}`,
          review_url: 'https://g.page/r/example/review',
          status: review.status,
          sent_at: new Date(at),
          clicked_at: review.status === 'clicked' ? new Date(at + 3_600_000) : null,
        });
      }
      if (i % 6 === 0) {
        const invoice = {
          sent: at,
          // Paid within two weeks, or not yet: a payment may fall in the next period, or beyond the end.
          paid: next() < 0.6 ? at + Math.floor(next() * 14 * 86_400_000) : null,
          currency: i % 4 === 0 ? 'NZD' : 'AUD',
          total: 1000 + Math.floor(next() * 50_000),
          location: i % 36 === 0 ? null : row.location,
        };
        // Some unpaid ones were withdrawn; some paid ones were half refunded three days later.
        const voided = !invoice.paid && i % 5 === 0;
        const refund =
          invoice.paid && i % 4 === 2
            ? { at: invoice.paid + 3 * 86_400_000, cents: Math.floor(invoice.total / 2) }
            : null;
        invoicesMade.push({ ...invoice, voided, refund });
        const [made] = await db
          .insert(invoices)
          .values({
            business_id: businessId,
            location_id: invoice.location,
            customer_id: c!.id,
            number: `GEN-${i}`,
            status: voided ? 'void' : refund ? 'partially_refunded' : invoice.paid ? 'paid' : 'sent',
            currency: invoice.currency,
            subtotal_cents: invoice.total,
            total_cents: invoice.total,
            amount_paid_cents: invoice.paid ? invoice.total : 0,
            amount_refunded_cents: refund?.cents ?? 0,
            secret: `generated-${i}`,
            sent_at: new Date(invoice.sent),
            paid_at: invoice.paid ? new Date(invoice.paid) : null,
            voided_at: voided ? new Date(invoice.sent + 86_400_000) : null,
          })
          .returning({ id: invoices.id });
        if (refund)
          await db.insert(invoiceRefunds).values({
            business_id: businessId,
            invoice_id: made!.id,
            currency: invoice.currency,
            amount_cents: refund.cents,
            refunded_at: new Date(refund.at),
          });
      }
      if (i % 3 === 0) {
        const seconds = 30 + Math.floor(next() * 7200);
        const reply = {
          at: at + seconds * 1000,
          seconds,
          business: Math.floor(seconds / 2),
          assistant: i % 9 === 0,
        };
        responses.push(reply);
        await db.insert(enquiryFacts).values({
          business_id: businessId,
          location_id: row.location,
          enquiry_id: e!.id,
          kind: 'response',
          channel: row.channel,
          started_at: new Date(at),
          ended_at: new Date(reply.at),
          seconds,
          business_seconds: reply.business,
          user_id: reply.assistant ? null : ownerId,
          by_assistant: reply.assistant,
        });
      }
    }
  });
  afterAll(() => t.close());

  const inPeriod = (at: number) => at >= FROM && at < TO;
  const inPrevious = (at: number) => at >= PREVIOUS_FROM && at < FROM;

  it('counts enquiries by channel, source, campaign and location, per day in the time zone, against the period before', async () => {
    const res = await api('GET', `/analytics/enquiries?${query}`, owner);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const report = res.body.body;
    const current = generated.filter((g) => inPeriod(g.at));
    expect(report.total).toBe(current.length);
    expect(report.previous_total).toBe(generated.filter((g) => inPrevious(g.at)).length);
    expect(report.range).toMatchObject({ timezone: 'Australia/Melbourne', bucket: 'day' });
    expect(Date.parse(report.range.start)).toBe(FROM);
    for (const channel of CHANNELS) {
      const row = report.by_channel.find((r: Json) => r.key === channel);
      expect(row?.count ?? 0).toBe(current.filter((g) => g.channel === channel).length);
    }
    expect(report.by_channel.find((r: Json) => r.key === 'widget')?.label).toBe('Website chat');
    const noSource = report.by_source.find((r: Json) => r.key === null);
    expect(noSource.label).toBe('No source');
    expect(noSource.count).toBe(current.filter((g) => g.source === null).length);
    expect(report.by_campaign.find((r: Json) => r.key === 'spring').previous).toBe(
      generated.filter((g) => inPrevious(g.at) && g.campaign === 'spring').length,
    );
    for (const id of locationIds) {
      expect(report.by_location.find((r: Json) => r.key === id)?.count ?? 0).toBe(
        current.filter((g) => g.location === id).length,
      );
    }
    // Every day of October, empty ones too, each counting the enquiries of that Melbourne day.
    expect(report.series).toHaveLength(31);
    for (const point of report.series) {
      expect(point.count, point.bucket).toBe(
        current.filter((g) => melbourneDay(g.at) === point.bucket).length,
      );
    }
    const heat = report.heatmap.reduce((s: number, h: Json) => s + h.count, 0);
    expect(heat).toBe(current.length);
    // Weeks start on Monday: 28 September 2026 is the Monday before the 1st.
    const weekly = (await api('GET', `/analytics/enquiries?${query}&bucket=week`, owner)).body.body;
    expect(weekly.series[0].bucket).toBe('2026-09-28');
    expect(weekly.series.reduce((s: number, p: Json) => s + p.count, 0)).toBe(current.length);
  });

  it('counts calls answered and missed', async () => {
    const report = (await api('GET', `/analytics/calls?${query}`, owner)).body.body;
    const current = callsMade.filter((c) => inPeriod(c.at));
    expect(report.total).toBe(current.length);
    const answered = current.filter((c) =>
      c.direction === 'out' ? c.status === 'completed' : c.taken,
    ).length;
    const missed = current.filter((c) => c.direction === 'in' && !c.taken).length;
    expect(report.answered).toBe(answered);
    expect(report.missed).toBe(missed);
    expect(report.by_direction.find((r: Json) => r.key === 'in')?.count ?? 0).toBe(
      current.filter((c) => c.direction === 'in').length,
    );
  });

  it('reports first-response times as median and p90, raw and within opening hours, with the assistant’s share', async () => {
    const report = (await api('GET', `/analytics/response-times?${query}`, owner)).body.body;
    const current = responses.filter((r) => inPeriod(r.at));
    expect(report.first_response.count).toBe(current.length);
    expect(report.first_response.median_seconds).toBe(
      percentile(
        current.map((r) => r.seconds),
        0.5,
      ),
    );
    expect(report.first_response.p90_seconds).toBe(
      percentile(
        current.map((r) => r.seconds),
        0.9,
      ),
    );
    expect(report.first_response.median_business_seconds).toBe(
      percentile(
        current.map((r) => r.business),
        0.5,
      ),
    );
    const previous = responses.filter((r) => inPrevious(r.at));
    expect(report.first_response.previous.count).toBe(previous.length);
    expect(report.assistant.answered).toBe(current.filter((r) => r.assistant).length);
    expect(report.by_staff[0]).toMatchObject({
      full_name: 'Olivia Harbour',
      replies: current.filter((r) => !r.assistant).length,
    });
    expect(report.resolution.count).toBe(0);
  });

  it('counts review requests sent, opened and failed, per location and per day', async () => {
    const report = (await api('GET', `/analytics/reviews?${query}`, owner)).body.body;
    const current = reviewsMade.filter((r) => inPeriod(r.at));
    const previous = reviewsMade.filter((r) => inPrevious(r.at));
    const sent = (list: typeof reviewsMade) => list.filter((r) => r.status !== 'failed').length;
    expect(report.sent).toBe(sent(current));
    expect(report.clicked).toBe(current.filter((r) => r.status === 'clicked').length);
    expect(report.failed).toBe(current.filter((r) => r.status === 'failed').length);
    expect(report.previous_sent).toBe(sent(previous));
    expect(report.by_location.find((r: Json) => r.key === null)?.count ?? 0).toBe(
      sent(current.filter((r) => r.location === null)),
    );
    expect(report.series).toHaveLength(31);
    for (const point of report.series) {
      const day = current.filter((r) => melbourneDay(r.at) === point.bucket);
      expect([point.sent, point.clicked], point.bucket).toEqual([
        sent(day),
        day.filter((r) => r.status === 'clicked').length,
      ]);
    }
    // One location chosen: requests without a location are left out.
    const one = (await api('GET', `/analytics/reviews?${query}&locationIds=${locationIds[0]}`, owner)).body
      .body;
    expect(one.sent).toBe(sent(current.filter((r) => r.location === locationIds[0])));
  });

  it('counts invoices sent (not voided) and paid, each in its own period, with amounts per currency, refunds and days to pay', async () => {
    const report = (await api('GET', `/analytics/invoices?${query}`, owner)).body.body;
    expect(invoicesMade.some((i) => i.voided && inPeriod(i.sent))).toBe(true);
    expect(invoicesMade.some((i) => i.refund && inPeriod(i.refund.at))).toBe(true);
    const live = invoicesMade.filter((i) => !i.voided);
    const sentNow = live.filter((i) => inPeriod(i.sent));
    const paidNow = invoicesMade.filter((i) => i.paid !== null && inPeriod(i.paid));
    expect(report.sent).toBe(sentNow.length);
    expect(report.paid).toBe(paidNow.length);
    expect(report.previous_sent).toBe(live.filter((i) => inPrevious(i.sent)).length);
    expect(report.previous_paid).toBe(
      invoicesMade.filter((i) => i.paid !== null && inPrevious(i.paid)).length,
    );
    expect(report.sent_and_paid).toBe(sentNow.filter((i) => i.paid !== null).length);
    const total = (list: typeof invoicesMade, currency: string) =>
      list.filter((i) => i.currency === currency).reduce((s, i) => s + i.total, 0);
    const refunded = (within: (at: number) => boolean, currency: string) =>
      invoicesMade
        .filter((i) => i.currency === currency && i.refund && within(i.refund.at))
        .reduce((s, i) => s + i.refund!.cents, 0);
    expect(report.amounts).toEqual(
      ['AUD', 'NZD'].map((currency) => {
        const paidBefore = total(
          invoicesMade.filter((i) => i.paid !== null && inPrevious(i.paid)),
          currency,
        );
        return {
          currency,
          sent_cents: total(sentNow, currency),
          paid_cents: total(paidNow, currency),
          refunded_cents: refunded(inPeriod, currency),
          net_cents: total(paidNow, currency) - refunded(inPeriod, currency),
          previous_sent_cents: total(
            live.filter((i) => inPrevious(i.sent)),
            currency,
          ),
          previous_paid_cents: paidBefore,
          previous_refunded_cents: refunded(inPrevious, currency),
          previous_net_cents: paidBefore - refunded(inPrevious, currency),
        };
      }),
    );
    const waits = paidNow.map((i) => (i.paid! - i.sent) / 1000);
    const median = percentile(waits, 0.5);
    expect(report.median_days_to_pay).toBe(median === null ? null : Math.round((median / 86_400) * 10) / 10);
    for (const point of report.series) {
      expect([point.sent, point.paid], point.bucket).toEqual([
        sentNow.filter((i) => melbourneDay(i.sent) === point.bucket).length,
        paidNow.filter((i) => melbourneDay(i.paid!) === point.bucket).length,
      ]);
    }
    const north = await t.login(DEMO_LOGINS.northsideOwner);
    expect((await api('GET', `/analytics/invoices?${query}`, north)).body.body).toMatchObject({
      sent: 0,
      paid: 0,
      amounts: [],
    });
  });

  it('keeps each business to its own, and each staff member to their locations', async () => {
    const north = await t.login(DEMO_LOGINS.northsideOwner);
    const theirs = (await api('GET', `/analytics/enquiries?${query}`, north)).body.body;
    expect(theirs.total).toBe(0);
    expect(
      (await api('GET', `/analytics/enquiries?${query}&locationIds=${locationIds[0]}`, north)).status,
    ).toBe(404);
    const one = (await api('GET', `/analytics/enquiries?${query}&locationIds=${locationIds[1]}`, owner)).body
      .body;
    expect(one.total).toBe(generated.filter((g) => inPeriod(g.at) && g.location === locationIds[1]).length);
    expect(one.range.location_ids).toEqual([locationIds[1]]);
  });

  it('refuses filters it cannot read, saying why', async () => {
    const cases: [string, number, RegExp][] = [
      ['timezone=Mars/Olympus', 400, /IANA time zone/],
      ['start=2026-10-31&end=2026-10-01', 400, /start on or before the end/],
      ['start=2024-01-01&end=2026-10-01', 400, /at most 366 days/],
      ['start=yesterday', 400, /not a date/],
      ['bucket=year', 400, /day, week or month/],
      ['locationIds=not-an-id', 404, /Location not found/],
    ];
    for (const [filter, status, message] of cases) {
      const res = await api('GET', `/analytics/enquiries?${filter}`, owner);
      expect(res.status, filter).toBe(status);
      expect(res.body.message, filter).toMatch(message);
    }
    // No filter at all: the last 7 days in Melbourne.
    const plain = (await api('GET', '/analytics/enquiries', owner)).body.body;
    expect(plain.range.timezone).toBe('Australia/Melbourne');
    expect(plain.series).toHaveLength(7);
  });
});
