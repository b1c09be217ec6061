import { randomBytes } from 'node:crypto';
import {
  businesses,
  customers,
  enquiries,
  invoices,
  locations,
  messages,
  reviewRequests,
} from '@switchboard/db';
import {
  DEFAULT_REVIEW_MESSAGE,
  DEFAULT_REVIEW_SETTINGS,
  isUuid,
  nextBusinessDay,
  nextSendingTime,
  type PageOf,
  type ReviewRequestJson,
  type ReviewRequestRequest,
  type ReviewRequestsQuery,
  ReviewSettings,
  type ReviewSettingsRequest,
  type ReviewSettings as ReviewSettingsT,
  type ReviewTemplateRequest,
  renderTemplate,
  TEMPLATE_PLACEHOLDERS,
  unknownPlaceholders,
} from '@switchboard/shared';
import { and, desc, eq, gt, gte, inArray, isNotNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { Context } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { reviewAfterPayment, reviewRemind } from '../../jobs/definitions/reviews.ts';
import { atTheirLocations, requireBusiness, requireOwner } from '../../plugins/auth.ts';
import { customersTheySee } from '../customers/scope.ts';
import { findLocation } from '../locations/service.ts';
import { sendAutomatic } from '../messages/automatic.ts';
import { addEventNote } from '../notes/service.ts';
import { reviewRequestsTheySee } from './scope.ts';

/** What marks a message as a review request or its reminder (`meta.auto`). */
export const REVIEW_AUTO = 'review_request';
export const REVIEW_REMINDER_AUTO = 'review_reminder';

type LocationRow = typeof locations.$inferSelect;
type RequestRow = typeof reviewRequests.$inferSelect;

/** A location's review settings, the defaults filling what was never set. */
export function reviewSettingsOf(location: Pick<LocationRow, 'review_reminders'>): ReviewSettingsT {
  const parsed = ReviewSettings.partial().safeParse(location.review_reminders ?? {});
  return { ...DEFAULT_REVIEW_SETTINGS, ...(parsed.success ? parsed.data : {}) };
}

/** The short link a request's message carries: it records the click and sends the customer on. */
export const reviewShortLink = (publicUrl: string, token: string) => `${publicUrl}/r/${token}`;

/** `PATCH /business/locations/{id}/update-review-template`. */
export async function updateReviewTemplate(
  ctx: Pick<Context, 'db' | 'actor'>,
  locationId: string,
  input: z.output<typeof ReviewTemplateRequest>,
) {
  const a = requireOwner(ctx.actor, 'change review requests');
  const location = await findLocation(ctx.db, a, locationId);
  const unknown = input.review_message ? unknownPlaceholders(input.review_message) : [];
  if (unknown.length)
    throw new AppError(
      'unprocessable',
      `${unknown.map((n) => `{${n}}`).join(', ')} ${unknown.length === 1 ? 'is not a placeholder' : 'are not placeholders'} Switchboard fills in. Use ${TEMPLATE_PLACEHOLDERS.map((n) => `{${n}}`).join(', ')}; the review link is added at the end.`,
    );
  const [row] = await ctx.db
    .update(locations)
    .set({
      ...(input.review_message !== undefined ? { review_message: input.review_message || null } : {}),
      ...(input.review_link !== undefined ? { review_link: input.review_link } : {}),
      ...(input.google_place_id !== undefined ? { google_place_id: input.google_place_id || null } : {}),
    })
    .where(eq(locations.id, location.id))
    .returning();
  return reviewTemplateDto(row!);
}

export function reviewTemplateDto(row: LocationRow) {
  return {
    location_id: row.id,
    review_message: row.review_message,
    review_link: row.review_link,
    google_place_id: row.google_place_id,
  };
}

export async function getReviewSettings(ctx: Pick<Context, 'db' | 'actor'>, locationId: string) {
  const a = requireBusiness(ctx.actor);
  return reviewSettingsOf(await findLocation(ctx.db, a, locationId));
}

export async function updateReviewSettings(
  ctx: Pick<Context, 'db' | 'actor'>,
  locationId: string,
  input: z.output<typeof ReviewSettingsRequest>,
) {
  const a = requireOwner(ctx.actor, 'change review reminders');
  const location = await findLocation(ctx.db, a, locationId);
  const next = { ...reviewSettingsOf(location), ...input };
  await ctx.db.update(locations).set({ review_reminders: next }).where(eq(locations.id, location.id));
  return next;
}

type Ask = {
  business_id: string;
  customer_id: string;
  location_id: string;
  enquiry_id?: string | null;
  invoice_id?: string | null;
  created_by?: string | null;
};

/**
 * Asks one customer for a review: the location's message (placeholders filled in) with the tracked short link,
 * in the customer's conversation, on its channel. Every customer is asked alike (nothing is filtered by how
 * happy they seem: Google's rules). Refused, saying why, when the location has no review link, the customer
 * was asked within the location's window, or their conversation cannot reach them.
 */
export async function askForReview(app: FastifyInstance, ask: Ask): Promise<RequestRow> {
  const [location] = await app.db.select().from(locations).where(eq(locations.id, ask.location_id));
  if (!location) throw new AppError('not_found', 'Location not found.');
  const where = location.name ?? 'this location';
  if (!location.review_link)
    throw new AppError('unprocessable', `Add ${where}'s review link first (Reviews → Settings).`);
  const settings = reviewSettingsOf(location);
  const [customer] = await app.db
    .select()
    .from(customers)
    .where(and(eq(customers.id, ask.customer_id), eq(customers.business_id, ask.business_id)));
  if (!customer) throw new AppError('not_found', 'Customer not found.');
  const since = new Date(Date.now() - settings.min_days_between * 86_400_000);
  const [recent] = await app.db
    .select({ sent_at: reviewRequests.sent_at })
    .from(reviewRequests)
    .where(
      and(
        eq(reviewRequests.customer_id, customer.id),
        eq(reviewRequests.business_id, ask.business_id),
        gte(reviewRequests.sent_at, since),
        inArray(reviewRequests.status, ['sent', 'clicked']),
      ),
    )
    .orderBy(desc(reviewRequests.sent_at))
    .limit(1);
  if (recent) {
    const next = new Date(recent.sent_at.getTime() + settings.min_days_between * 86_400_000);
    const day = (d: Date) =>
      d.toLocaleDateString('en-AU', { day: 'numeric', month: 'short', year: 'numeric' });
    throw new AppError(
      'conflict',
      `${customer.name ?? 'This customer'} was asked for a review on ${day(recent.sent_at)}; they can be asked again from ${day(next)}.`,
    );
  }
  const enquiryId = ask.enquiry_id ?? (await latestConversation(app, customer.id, location.id));
  if (!enquiryId)
    throw new AppError(
      'unprocessable',
      `There is no conversation with ${customer.name ?? 'this customer'} to ask in.`,
    );
  const [business] = await app.db.select().from(businesses).where(eq(businesses.id, ask.business_id));
  const token = randomBytes(6).toString('base64url');
  const link = reviewShortLink(app.config.publicUrl, token);
  const text = renderTemplate(location.review_message || DEFAULT_REVIEW_MESSAGE, {
    first_name: customer.first_name,
    business_name: business?.name ?? '',
    location_name: location.name,
    business_day: nextBusinessDay(
      new Date(),
      location.timezone ?? business?.timezone ?? 'Australia/Melbourne',
      location.holidays.map((h) => h.date),
    ),
  }).trim();
  const outcome = await sendAutomatic(app, {
    enquiry_id: enquiryId,
    message: `${text}\n${link}`,
    client_id: `review:${token}`,
    meta: { auto: REVIEW_AUTO },
    email_subject: `How did we do? ${business?.name ?? ''}`.trim(),
  });
  if (!outcome.sent)
    throw new AppError('unprocessable', `The review request was not sent: ${outcome.reason}`);
  // The request's time, and its first reminder counted from that same instant.
  const sentAt = new Date();
  const first =
    settings.enabled && settings.max_reminders > 0
      ? reminderTime(location, business, settings, sentAt)
      : null;
  const [row] = await app.db
    .insert(reviewRequests)
    .values({
      business_id: ask.business_id,
      location_id: location.id,
      customer_id: customer.id,
      enquiry_id: enquiryId,
      invoice_id: ask.invoice_id ?? null,
      created_by: ask.created_by ?? null,
      token,
      review_url: location.review_link,
      sent_at: sentAt,
      next_reminder_at: first,
    })
    .returning();
  if (first)
    await app.jobs.send(
      reviewRemind,
      { request_id: row!.id, reminder: 1 },
      { startAfter: first, singletonKey: `${row!.id}:1` },
    );
  return row!;
}

/** When a reminder goes: the delay on, then the next moment inside 9:00–20:00 where the location is. */
function reminderTime(
  location: Pick<LocationRow, 'timezone'>,
  business: { timezone: string } | undefined,
  settings: ReviewSettingsT,
  from = new Date(),
): Date {
  const tz = location.timezone ?? business?.timezone ?? 'Australia/Melbourne';
  return nextSendingTime(new Date(from.getTime() + settings.delay_days * 86_400_000), tz);
}

async function latestConversation(
  app: FastifyInstance,
  customerId: string,
  locationId: string,
): Promise<string | null> {
  const [row] = await app.db
    .select({ id: enquiries.id })
    .from(enquiries)
    .where(and(eq(enquiries.customer_id, customerId), eq(enquiries.location_id, locationId)))
    .orderBy(desc(enquiries.last_message_at))
    .limit(1);
  return row?.id ?? null;
}

/** `POST /business/review-requests`: from a conversation, or to a list of customers (each told apart). */
export async function requestReviews(
  app: FastifyInstance,
  ctx: Pick<Context, 'db' | 'actor'>,
  input: z.output<typeof ReviewRequestRequest>,
) {
  const a = requireBusiness(ctx.actor);
  if ('enquiry_id' in input) {
    const [e] = await ctx.db
      .select()
      .from(enquiries)
      .where(
        and(
          eq(enquiries.id, input.enquiry_id),
          eq(enquiries.business_id, a.business_id),
          atTheirLocations(a, enquiries.location_id),
        ),
      );
    if (!e) throw new AppError('enquiry_not_found', 'Enquiry not found!');
    await askForReview(app, {
      business_id: a.business_id,
      customer_id: e.customer_id,
      location_id: e.location_id,
      enquiry_id: e.id,
      created_by: a.user_id,
    });
    return { sent: 1, skipped: [] };
  }
  await findLocation(ctx.db, a, input.location_id);
  const found = await ctx.db
    .select({ id: customers.id, name: customers.name })
    .from(customers)
    .where(and(customersTheySee(a), inArray(customers.id, input.customer_ids)));
  if (found.length !== new Set(input.customer_ids).size)
    throw new AppError('not_found', 'Customer not found.');
  let sent = 0;
  const skipped: { customer_id: string; name: string | null; reason: string }[] = [];
  for (const c of found) {
    try {
      await askForReview(app, {
        business_id: a.business_id,
        customer_id: c.id,
        location_id: input.location_id,
        created_by: a.user_id,
      });
      sent += 1;
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      skipped.push({ customer_id: c.id, name: c.name, reason: error.message });
    }
  }
  return { sent, skipped };
}

/**
 * A reminder's time came (the `review.remind` job): sent when the customer has neither opened the link nor
 * written since, then the next one is scheduled; outside 9:00–20:00 it waits for the morning.
 */
export async function remindReview(
  app: FastifyInstance,
  job: { request_id: string; reminder: number },
  now = new Date(),
): Promise<void> {
  const [row] = await app.db
    .select({ request: reviewRequests, location: locations, business: businesses })
    .from(reviewRequests)
    .innerJoin(businesses, eq(businesses.id, reviewRequests.business_id))
    .leftJoin(locations, eq(locations.id, reviewRequests.location_id))
    .where(eq(reviewRequests.id, job.request_id));
  if (!row?.location || !row.request.enquiry_id) return;
  const { request, location, business } = row;
  const enquiryId = row.request.enquiry_id;
  if (request.status !== 'sent' || !request.next_reminder_at || request.reminders_sent >= job.reminder)
    return;
  const tz = location.timezone ?? business.timezone;
  const due = nextSendingTime(now, tz);
  if (due.getTime() !== now.getTime()) {
    await app.jobs.send(reviewRemind, job, {
      startAfter: due,
      singletonKey: `${request.id}:${job.reminder}:${due.getTime()}`,
    });
    return;
  }
  // The customer wrote back since the request: no more reminders.
  const [reply] = await app.db
    .select({ id: messages.id })
    .from(messages)
    .where(
      and(
        eq(messages.enquiry_id, enquiryId),
        eq(messages.direction, 'in'),
        gt(messages.created_at, request.sent_at),
      ),
    )
    .limit(1);
  if (reply) {
    await stopReminders(app, request.id, 'replied');
    return;
  }
  const settings = reviewSettingsOf(location);
  const [customer] = await app.db.select().from(customers).where(eq(customers.id, request.customer_id));
  const hi = customer?.first_name ? `Hi ${customer.first_name}, a` : 'A';
  const outcome = await sendAutomatic(app, {
    enquiry_id: enquiryId,
    message: `${hi} quick reminder: we'd love to hear how ${business.name} did. It only takes a minute:\n${reviewShortLink(app.config.publicUrl, request.token)}`,
    client_id: `review-reminder:${request.id}:${job.reminder}`,
    meta: { auto: REVIEW_REMINDER_AUTO },
  });
  if (!outcome.sent)
    app.log.info({ request_id: request.id, reason: outcome.reason }, 'review reminder not sent');
  const more = settings.enabled && job.reminder < settings.max_reminders;
  const next = more ? reminderTime(location, business, settings, now) : null;
  await app.db
    .update(reviewRequests)
    .set({ reminders_sent: job.reminder, next_reminder_at: next })
    .where(eq(reviewRequests.id, request.id));
  if (next)
    await app.jobs.send(
      reviewRemind,
      { request_id: request.id, reminder: job.reminder + 1 },
      { startAfter: next, singletonKey: `${request.id}:${job.reminder + 1}` },
    );
}

async function stopReminders(
  app: Pick<FastifyInstance, 'db'>,
  requestId: string,
  why: 'clicked' | 'replied',
) {
  await app.db
    .update(reviewRequests)
    .set({ next_reminder_at: null, reminders_stopped: why })
    .where(and(eq(reviewRequests.id, requestId), isNotNull(reviewRequests.next_reminder_at)));
}

/** A customer wrote in a conversation: their pending review reminders stop. */
export async function customerReplied(app: Pick<FastifyInstance, 'db'>, enquiryId: string): Promise<void> {
  await app.db
    .update(reviewRequests)
    .set({ next_reminder_at: null, reminders_stopped: 'replied' })
    .where(and(eq(reviewRequests.enquiry_id, enquiryId), isNotNull(reviewRequests.next_reminder_at)));
}

/**
 * `GET /r/{token}`: the customer opened the review link. The first open is recorded (reminders stop, the
 * conversation says so); every open goes on to the review page. An unknown token goes nowhere.
 */
export async function openReviewLink(app: FastifyInstance, token: string): Promise<string | null> {
  if (!/^[\w-]{6,20}$/.test(token)) return null;
  const [request] = await app.db.select().from(reviewRequests).where(eq(reviewRequests.token, token));
  if (!request) return null;
  const [first] = await app.db
    .update(reviewRequests)
    .set({
      status: 'clicked',
      clicked_at: new Date(),
      next_reminder_at: null,
      reminders_stopped: sql`case when ${reviewRequests.next_reminder_at} is not null then 'clicked' else ${reviewRequests.reminders_stopped} end`,
    })
    .where(and(eq(reviewRequests.id, request.id), eq(reviewRequests.status, 'sent')))
    .returning();
  if (first?.enquiry_id)
    await addEventNote(
      { db: app.db, events: app.events },
      { business_id: first.business_id, enquiry_id: first.enquiry_id, body: 'Opened the review link.' },
    ).catch((error: unknown) => app.log.warn({ err: error }, 'could not note the review click'));
  return request.review_url;
}

/** `GET /business/review-requests`: newest first, with how many were sent and opened over the whole filter. */
export async function listReviewRequests(
  ctx: Pick<Context, 'db' | 'actor'>,
  q: z.output<typeof ReviewRequestsQuery>,
): Promise<PageOf<ReviewRequestJson> & { stats: { sent: number; clicked: number; rate: number } }> {
  const a = requireBusiness(ctx.actor);
  const scope = and(
    reviewRequestsTheySee(a),
    q.location_id ? eq(reviewRequests.location_id, q.location_id) : undefined,
  );
  const where = and(scope, q.status ? eq(reviewRequests.status, q.status) : undefined);
  const [rows, [stats]] = await Promise.all([
    ctx.db
      .select({ r: reviewRequests, customer_name: customers.name, location_name: locations.name })
      .from(reviewRequests)
      .innerJoin(customers, eq(customers.id, reviewRequests.customer_id))
      .leftJoin(locations, eq(locations.id, reviewRequests.location_id))
      .where(where)
      .orderBy(desc(reviewRequests.sent_at), desc(reviewRequests.id))
      .limit(q.page_size)
      .offset((q.page - 1) * q.page_size),
    ctx.db
      .select({
        total: sql<number>`count(*) filter (where ${where ?? sql`true`})::int`,
        sent: sql<number>`count(*) filter (where ${reviewRequests.status} <> 'failed')::int`,
        clicked: sql<number>`count(*) filter (where ${reviewRequests.status} = 'clicked')::int`,
      })
      .from(reviewRequests)
      .where(scope),
  ]);
  const sent = stats?.sent ?? 0;
  const clicked = stats?.clicked ?? 0;
  return {
    items: rows.map(({ r, customer_name, location_name }) => ({
      id: r.id,
      customer_id: r.customer_id,
      customer_name,
      enquiry_id: r.enquiry_id,
      location_id: r.location_id,
      location_name,
      status: r.status,
      reminders_sent: r.reminders_sent,
      next_reminder_at: r.next_reminder_at?.toISOString() ?? null,
      reminders_stopped: r.reminders_stopped,
      sent_at: r.sent_at.toISOString(),
      clicked_at: r.clicked_at?.toISOString() ?? null,
    })),
    page: q.page,
    page_size: q.page_size,
    total: stats?.total ?? 0,
    stats: { sent, clicked, rate: sent ? Math.round((clicked / sent) * 1000) / 10 : 0 },
  };
}

/** A paid invoice: its customer is asked for a review later, when its location wants that. */
export async function queueReviewAfterPayment(
  app: Pick<Context, 'db' | 'jobs'>,
  invoiceId: string,
): Promise<void> {
  const [row] = await app.db
    .select({ invoice: invoices, location: locations, business: businesses })
    .from(invoices)
    .innerJoin(businesses, eq(businesses.id, invoices.business_id))
    .innerJoin(locations, eq(locations.id, invoices.location_id))
    .where(eq(invoices.id, invoiceId));
  if (!row?.invoice.customer_id) return;
  const settings = reviewSettingsOf(row.location);
  if (!settings.after_payment || !row.location.review_link) return;
  const tz = row.location.timezone ?? row.business.timezone;
  const at = nextSendingTime(new Date(Date.now() + settings.after_payment_hours * 3_600_000), tz);
  // Through the caller's database handle: inside the payment's transaction, the job commits with it.
  await app.jobs.send(
    reviewAfterPayment,
    { invoice_id: invoiceId },
    { startAfter: at, singletonKey: invoiceId, db: app.db },
  );
}

/** The `review.after-payment` job: asks, unless the customer was asked recently (then nothing). */
export async function reviewAfterPaid(app: FastifyInstance, job: { invoice_id: string }): Promise<void> {
  if (!isUuid(job.invoice_id)) return;
  const [invoice] = await app.db.select().from(invoices).where(eq(invoices.id, job.invoice_id));
  if (!invoice?.customer_id || !invoice.location_id || invoice.status !== 'paid') return;
  try {
    await askForReview(app, {
      business_id: invoice.business_id,
      customer_id: invoice.customer_id,
      location_id: invoice.location_id,
      enquiry_id: invoice.enquiry_id,
      invoice_id: invoice.id,
    });
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    app.log.info({ invoice_id: invoice.id, reason: error.message }, 'no review request after payment');
  }
}
