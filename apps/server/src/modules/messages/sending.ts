import { customers, type Db, enquiries, locations, messages, queryRows } from '@switchboard/db';
import type { MessageStatus } from '@switchboard/shared';
import { and, asc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pLimit, { type LimitFunction } from 'p-limit';
import type { JobWithMetadata } from 'pg-boss';
import type { ChannelAdapter, OutboundMessage, SendResult } from '../../channels/types.ts';
import type { EventBus } from '../../events/bus.ts';
import { messageSend } from '../../jobs/definitions/message-send.ts';
import { sandboxDelivery } from '../../jobs/definitions/sandbox-delivery.ts';
import { PermanentSendError, TransientSendError } from '../../lib/provider-errors.ts';
import type { BatchHandler, Jobs } from '../../plugins/jobs.ts';
import { toMessageDto } from './dto.ts';
import { applyMessageStatus } from './outbound.ts';

/** Send jobs taken at once: claimed, read and recorded with one statement each. */
export const SEND_BATCH = 100;
/** At most this many calls to one provider account at once, per process. */
export const ACCOUNT_CONCURRENCY = 32;
/** How long an account pauses after a 429 that did not say how long to wait. */
const DEFAULT_PAUSE_SECONDS = 5;
/** Longest pause a provider's Retry-After can impose before the jobs are simply retried later. */
const MAX_PAUSE_SECONDS = 300;

const GAVE_UP = 'Sending gave up after several tries. Send it again.';

export const INTERRUPTED_SEND =
  'Sending stopped part-way (the server restarted), and this channel cannot tell whether the message arrived. Check with the customer, or send it again.';

type Outcome =
  | { kind: 'sent'; result: SendResult }
  | { kind: 'failed'; reason: string }
  | { kind: 'retry'; reason: string };

type MessageRow = typeof messages.$inferSelect;

type Claimed = {
  message: MessageRow;
  previous: Date | null;
  location_id: string;
  outbound: OutboundMessage;
};

/**
 * Sends outbound messages a batch of jobs at a time. One statement claims the batch (recording that a send
 * began, before any provider is called), one reads everything the adapters need, the provider calls run
 * concurrently (bounded per account, paused after a 429), and one statement per outcome records the results.
 * A message whose earlier attempt began but never recorded an outcome is looked up at the provider first,
 * so a crash between the provider's answer and our commit never sends it twice.
 */
export function createSender(app: FastifyInstance): BatchHandler<{ message_id: string }> {
  const limits = new Map<string, LimitFunction>();
  const pausedUntil = new Map<string, number>();
  const inFlight = new Set<string>();
  const limitOf = (key: string) => {
    const limit = limits.get(key) ?? pLimit(ACCOUNT_CONCURRENCY);
    limits.set(key, limit);
    return limit;
  };

  async function attempt(adapter: ChannelAdapter, c: Claimed): Promise<Outcome> {
    const key = adapter.key ?? adapter.provider;
    return limitOf(key)(async () => {
      const paused = pausedUntil.get(key) ?? 0;
      if (paused > Date.now()) {
        return { kind: 'retry', reason: `${adapter.provider} asked us to slow down; sending again shortly.` };
      }
      try {
        if (c.previous) {
          if (!adapter.reconcile) return { kind: 'failed', reason: INTERRUPTED_SEND };
          const found = await adapter.reconcile(c.outbound, c.previous);
          if (found) return { kind: 'sent', result: found };
        }
        return { kind: 'sent', result: await adapter.send(c.outbound) };
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        if (error instanceof PermanentSendError) return { kind: 'failed', reason };
        if (error instanceof TransientSendError && error.rateLimited) {
          const seconds = Math.min(error.retryAfterSeconds ?? DEFAULT_PAUSE_SECONDS, MAX_PAUSE_SECONDS);
          pausedUntil.set(key, Math.max(paused, Date.now() + seconds * 1000));
        }
        return { kind: 'retry', reason };
      }
    });
  }

  return async (jobs) => {
    const settled = new Map<string, { outcome: 'done' } | { outcome: 'retry'; reason: string }>();
    const jobOf = new Map<string, JobWithMetadata<{ message_id: string }>>();
    for (const job of jobs) {
      // A second job for a message this process is already sending (left by an older version) waits its turn.
      if (inFlight.has(job.data.message_id) || jobOf.has(job.data.message_id)) {
        settled.set(job.id, { outcome: 'retry', reason: 'already being sent' });
      } else jobOf.set(job.data.message_id, job);
    }
    const ids = [...jobOf.keys()];
    for (const id of ids) inFlight.add(id);
    try {
      const claimed = await claim(app.db, ids);
      for (const [id, job] of jobOf) if (!claimed.has(id)) settled.set(job.id, { outcome: 'done' });

      const adapters = new Map<string, Promise<ChannelAdapter>>();
      const outcomes = await Promise.all(
        [...claimed.values()].map(async (c): Promise<[Claimed, Outcome, string]> => {
          const route = `${c.message.channel}:${c.location_id}`;
          if (!adapters.has(route))
            adapters.set(route, app.channels.forChannel(c.message.channel, c.location_id));
          let adapter: ChannelAdapter;
          try {
            adapter = await adapters.get(route)!;
          } catch (error) {
            const reason = error instanceof Error ? error.message : String(error);
            return [
              c,
              error instanceof PermanentSendError ? { kind: 'failed', reason } : { kind: 'retry', reason },
              'none',
            ];
          }
          return [c, await attempt(adapter, c), adapter.provider];
        }),
      );

      const sent: { c: Claimed; result: SendResult }[] = [];
      const failed: { c: Claimed; reason: string }[] = [];
      const retried: Claimed[] = [];
      for (const [c, outcome, provider] of outcomes) {
        const job = jobOf.get(c.message.id)!;
        if (outcome.kind === 'sent') {
          sent.push({ c, result: outcome.result });
          app.metrics.sends.inc({ provider: outcome.result.provider, outcome: 'sent' });
          settled.set(job.id, { outcome: 'done' });
        } else if (outcome.kind === 'failed' || job.retryCount >= job.retryLimit) {
          failed.push({ c, reason: outcome.reason });
          app.metrics.sends.inc({ provider, outcome: 'failed' });
          settled.set(job.id, { outcome: 'done' });
        } else {
          retried.push(c);
          app.metrics.sends.inc({ provider, outcome: 'retry' });
          app.log.warn(
            { message_id: c.message.id, reason: outcome.reason, retry: job.retryCount },
            'send failed; will retry',
          );
          settled.set(job.id, { outcome: 'retry', reason: outcome.reason });
        }
      }
      await record(app, sent, failed, retried);
    } finally {
      for (const id of ids) inFlight.delete(id);
    }
    return settled;
  };
}

/**
 * Marks the queued messages among `ids` as being sent, in one statement, and reads what sending them needs.
 * Returns each with the time an earlier attempt began, when one did and left no outcome.
 */
async function claim(db: Db, ids: string[]): Promise<Map<string, Claimed>> {
  if (!ids.length) return new Map();
  const taken = await queryRows<{ id: string; previous: Date | string | null }>(
    db,
    sql`
    update messages m set send_started_at = now()
    from (select id, send_started_at as previous from messages
          where id in ${sql`(${sql.join(
            ids.map((id) => sql`${id}::uuid`),
            sql`, `,
          )})`} and status = 'queued' and direction = 'out' for update) p
    where m.id = p.id
    returning m.id, p.previous`,
  );
  const previous = new Map(
    taken.map((r) => [r.id, r.previous === null ? null : new Date(r.previous)] as const),
  );
  if (!previous.size) return new Map();
  const rows = await db
    .select({
      m: messages,
      enquiry_id: enquiries.id,
      location_id: enquiries.location_id,
      c: {
        id: customers.id,
        phone: customers.phone,
        email: customers.email,
        name: customers.name,
        external_ids: customers.external_ids,
      },
      l: { name: locations.name, phone: locations.phone_number, email: locations.email_address },
    })
    .from(messages)
    .innerJoin(enquiries, eq(enquiries.id, messages.enquiry_id))
    .innerJoin(customers, eq(customers.id, messages.customer_id))
    .innerJoin(locations, eq(locations.id, enquiries.location_id))
    .where(inArray(messages.id, [...previous.keys()]));
  // Earlier provider ids of the same threads, for threading (email In-Reply-To / References).
  const threads = await db
    .select({
      enquiry_id: messages.enquiry_id,
      id: messages.provider_message_id,
      created_at: messages.created_at,
      wa_id: sql<string | null>`${messages.meta}->>'wa_id'`,
    })
    .from(messages)
    .where(
      and(
        inArray(messages.enquiry_id, [...new Set(rows.map((r) => r.enquiry_id))]),
        isNotNull(messages.provider_message_id),
      ),
    )
    .orderBy(asc(messages.created_at));
  const claimed = new Map<string, Claimed>();
  for (const { m, c, l, enquiry_id, location_id } of rows) {
    claimed.set(m.id, {
      message: m,
      previous: previous.get(m.id) ?? null,
      location_id,
      outbound: {
        id: m.id,
        business_id: m.business_id,
        location_id,
        channel: m.channel,
        to: { phone: c.phone, email: c.email, name: c.name, external_id: c.external_ids[m.channel] ?? null },
        from: { location_name: l.name, phone: l.phone, email: l.email },
        message: m.message,
        subject: m.meta.subject,
        attachments: m.attachments,
        thread: {
          provider_message_ids: threads
            .filter((t) => t.enquiry_id === enquiry_id && t.created_at < m.created_at && t.id)
            .map((t) => t.id!),
          wa_id:
            threads.findLast((t) => t.enquiry_id === enquiry_id && t.created_at < m.created_at && t.wa_id)
              ?.wa_id ?? undefined,
        },
        meta: m.meta,
        enquiry_id,
        customer_id: c.id,
      },
    });
  }
  return claimed;
}

/** Records a batch's outcomes (one statement each), tells the inboxes, and queues the sandbox's delivery reports. */
async function record(
  app: FastifyInstance,
  sent: { c: Claimed; result: SendResult }[],
  failed: { c: Claimed; reason: string }[],
  retried: Claimed[],
): Promise<void> {
  const locationOf = new Map<string, string>();
  for (const { c } of [...sent, ...failed]) locationOf.set(c.message.id, c.location_id);
  const changed: MessageRow[] = [];
  const recordSent = async (batch: typeof sent) => {
    const values = sql.join(
      batch.map(
        ({ c, result }) =>
          sql`(${c.message.id}::uuid, ${result.status ?? 'sent'}, ${result.provider}, ${result.provider_message_id}, ${JSON.stringify(result.meta ?? {})}::jsonb)`,
      ),
      sql`, `,
    );
    return (await app.db
      .update(messages)
      .set({
        status: sql`v.status`,
        provider: sql`v.provider`,
        provider_message_id: sql`v.provider_message_id`,
        meta: sql`${messages.meta} || v.meta`,
        error: null,
        send_started_at: null,
      })
      .from(sql`(values ${values}) as v(id, status, provider, provider_message_id, meta)`)
      .where(and(sql`${messages.id} = v.id`, eq(messages.status, 'queued')))
      .returning()) as unknown as MessageRow[];
  };
  if (sent.length) {
    try {
      changed.push(...(await recordSent(sent)));
    } catch {
      // One answer the database refuses (e.g. a provider id it already holds) must not undo the others.
      for (const one of sent) {
        try {
          changed.push(...(await recordSent([one])));
        } catch (error) {
          const reason = error instanceof Error ? error.message : String(error);
          failed.push({
            c: one.c,
            reason: `The provider took the message, but its answer could not be recorded: ${reason}`,
          });
        }
      }
    }
  }
  if (failed.length) {
    const values = sql.join(
      failed.map(({ c, reason }) => sql`(${c.message.id}::uuid, ${reason})`),
      sql`, `,
    );
    changed.push(
      ...((await app.db
        .update(messages)
        .set({ status: 'failed', error: sql`v.reason`, send_started_at: null })
        .from(sql`(values ${values}) as v(id, reason)`)
        .where(and(sql`${messages.id} = v.id`, eq(messages.status, 'queued')))
        .returning()) as unknown as MessageRow[]),
    );
  }
  if (retried.length) {
    // The provider answered (an error we retry): it did not take the message, so the next try just sends.
    await app.db
      .update(messages)
      .set({ send_started_at: null })
      .where(
        inArray(
          messages.id,
          retried.map((c) => c.message.id),
        ),
      );
  }
  for (const m of changed) {
    app.events.emit('message.updated', {
      business_id: m.business_id,
      location_id: locationOf.get(m.id)!,
      message: toMessageDto(m, null),
    });
  }
  const sandboxed = changed.filter((m) => m.provider === 'sandbox' && m.status === 'sent');
  if (sandboxed.length) {
    await app.jobs.insert(
      sandboxDelivery,
      sandboxed.map((m) => ({ message_id: m.id })),
    );
  }
}

/** The sandbox reports delivery a moment after sending, for a batch at once, as a provider's callbacks would. */
export function createSandboxDeliverer(app: FastifyInstance): BatchHandler<{ message_id: string }> {
  return async (jobs) => {
    const ids = jobs.map((j) => j.data.message_id);
    const FORWARD_TO_DELIVERED: MessageStatus[] = ['queued', 'sent'];
    const moved = ids.length
      ? await app.db
          .update(messages)
          .set({ status: 'delivered' })
          .where(and(inArray(messages.id, ids), inArray(messages.status, FORWARD_TO_DELIVERED)))
          .returning()
      : [];
    if (moved.length) {
      const where = await app.db
        .select({ id: enquiries.id, location_id: enquiries.location_id })
        .from(enquiries)
        .where(inArray(enquiries.id, [...new Set(moved.map((m) => m.enquiry_id))]));
      const locationOf = new Map(where.map((e) => [e.id, e.location_id]));
      for (const m of moved) {
        app.events.emit('message.updated', {
          business_id: m.business_id,
          location_id: locationOf.get(m.enquiry_id)!,
          message: toMessageDto(m, null),
        });
      }
    }
    return new Map(jobs.map((j) => [j.id, { outcome: 'done' as const }]));
  };
}

/**
 * Outbound messages still queued a while after they were written, and what became of their send job: none
 * (the process stopped between the commit and queuing it) gets one; a job that ended without settling the
 * message (its retries spent while a node was down) fails the message with the reason.
 */
export async function sweepQueuedMessages(
  ctx: { db: Db; jobs: Jobs; events: EventBus },
  olderThanSeconds = 5,
): Promise<number> {
  const stuck = await queryRows<{ id: string; state: string | null }>(
    ctx.db,
    sql`
    select m.id, j.state from messages m
    left join pgboss.job j on j.name = ${messageSend.name} and j.id = m.id
    where m.status = 'queued' and m.direction = 'out'
      and m.created_at < now() - make_interval(secs => ${olderThanSeconds})
      and (j.id is null or j.state in ('completed', 'failed', 'cancelled'))
    order by m.created_at limit 1000`,
  );
  const orphans = stuck.filter((r) => r.state === null).map((r) => ({ message_id: r.id }));
  await ctx.jobs.insert(messageSend, orphans, (d) => ({ id: d.message_id }));
  for (const r of stuck) {
    if (r.state !== null) await applyMessageStatus(ctx, { id: r.id }, 'failed', { error: GAVE_UP });
  }
  return stuck.length;
}
