import { customers, type Db, enquiries, messages } from '@switchboard/db';
import type { MessageStatus } from '@switchboard/shared';
import { and, asc, eq, inArray, isNotNull, lt, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { JobWithMetadata } from 'pg-boss';
import type { EventBus } from '../../events/bus.ts';
import { sandboxDelivery } from '../../jobs/definitions/sandbox-delivery.ts';
import { PermanentSendError } from '../../lib/provider-errors.ts';
import type { Jobs } from '../../plugins/jobs.ts';
import { toMessageDto } from './dto.ts';
import { enqueueSend, locationBrief } from './service.ts';

/** The statuses a message may move to from each status: forwards only, so late callbacks change nothing. */
const FORWARD: Record<MessageStatus, MessageStatus[]> = {
  queued: ['sent', 'delivered', 'read', 'failed'],
  sent: ['delivered', 'read', 'failed'],
  delivered: ['read'],
  read: [],
  failed: [],
  received: [],
};

const priorStatuses = (to: MessageStatus) =>
  (Object.keys(FORWARD) as MessageStatus[]).filter((from) => FORWARD[from].includes(to));

type StatusCtx = { db: Db; events: EventBus };

/**
 * Moves a message to `status` unless it is already at or past it. Returns true when the status changed
 * (and the change was broadcast).
 */
export async function applyMessageStatus(
  ctx: StatusCtx,
  where: { id: string } | { provider: string; provider_message_id: string },
  status: MessageStatus,
  extra: { error?: string | null; provider?: string; provider_message_id?: string } = {},
): Promise<boolean> {
  const match =
    'id' in where
      ? eq(messages.id, where.id)
      : and(
          eq(messages.provider, where.provider),
          eq(messages.provider_message_id, where.provider_message_id),
        );
  const [m] = await ctx.db
    .update(messages)
    .set({ status, ...extra })
    .where(and(match, inArray(messages.status, priorStatuses(status))))
    .returning();
  if (!m) return false;
  const [e] = await ctx.db
    .select({ location_id: enquiries.location_id })
    .from(enquiries)
    .where(eq(enquiries.id, m.enquiry_id));
  ctx.events.emit('message.updated', {
    business_id: m.business_id,
    location_id: e!.location_id,
    message: toMessageDto(m, null),
  });
  return true;
}

/**
 * The send worker: hands a queued message to its channel's adapter. A permanent refusal fails the message at
 * once with the reason; anything else is retried with exponential backoff, and fails the message with the
 * last reason when the retries run out.
 */
export async function sendQueuedMessage(
  app: FastifyInstance,
  job: JobWithMetadata<{ message_id: string }>,
): Promise<void> {
  const ctx = { db: app.db, events: app.events };
  const [row] = await app.db
    .select({ m: messages, e: enquiries, c: customers })
    .from(messages)
    .innerJoin(enquiries, eq(enquiries.id, messages.enquiry_id))
    .innerJoin(customers, eq(customers.id, messages.customer_id))
    .where(eq(messages.id, job.data.message_id));
  if (row?.m.status !== 'queued') return;
  const { m, e, c } = row;
  let provider = 'none';
  try {
    const adapter = await app.channels.forChannel(e.channel, e.location_id);
    provider = adapter.provider;
    const thread = await app.db
      .select({ id: messages.provider_message_id })
      .from(messages)
      .where(
        and(
          eq(messages.enquiry_id, e.id),
          isNotNull(messages.provider_message_id),
          lt(messages.created_at, m.created_at),
        ),
      )
      .orderBy(asc(messages.created_at));
    const result = await adapter.send({
      id: m.id,
      business_id: m.business_id,
      location_id: e.location_id,
      channel: m.channel,
      to: { phone: c.phone, email: c.email, name: c.name, external_id: c.external_ids[m.channel] ?? null },
      from: await locationBrief(app.db, e.location_id).then((l) => ({
        location_name: l.name,
        phone: l.phone,
        email: l.email,
      })),
      message: m.message,
      subject: m.meta.subject,
      attachments: m.attachments,
      thread: { provider_message_ids: thread.map((t) => t.id!).filter(Boolean) },
      meta: m.meta,
      enquiry_id: e.id,
      customer_id: c.id,
    });
    app.metrics.sends.inc({ provider: result.provider, outcome: 'sent' });
    await applyMessageStatus(ctx, { id: m.id }, result.status ?? 'sent', {
      provider: result.provider,
      provider_message_id: result.provider_message_id,
      error: null,
    });
    if (result.provider === 'sandbox') {
      await app.jobs.send(sandboxDelivery, { message_id: m.id });
    }
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const lastTry = job.retryCount >= job.retryLimit;
    if (error instanceof PermanentSendError || lastTry) {
      app.metrics.sends.inc({ provider, outcome: 'failed' });
      await applyMessageStatus(ctx, { id: m.id }, 'failed', { error: reason });
      return;
    }
    app.metrics.sends.inc({ provider, outcome: 'retry' });
    app.log.warn({ message_id: m.id, reason, retry: job.retryCount }, 'send failed; will retry');
    throw error;
  }
}

/** The sandbox reports delivery a moment after sending, through the same path as a provider's callback. */
export async function deliverSandboxMessage(app: FastifyInstance, messageId: string): Promise<void> {
  await applyMessageStatus({ db: app.db, events: app.events }, { id: messageId }, 'delivered');
}

/** Re-enqueues outbound messages left `queued` without a job (e.g. a crash between commit and enqueue). */
export async function requeueStuckMessages(db: Db, jobs: Jobs, olderThanSeconds = 30): Promise<number> {
  const stuck = await db
    .select({ id: messages.id })
    .from(messages)
    .where(
      and(
        eq(messages.direction, 'out'),
        eq(messages.status, 'queued'),
        lt(messages.created_at, sql`now() - make_interval(secs => ${olderThanSeconds})`),
      ),
    )
    .limit(1000);
  for (const { id } of stuck) await enqueueSend(jobs, id);
  return stuck.length;
}
