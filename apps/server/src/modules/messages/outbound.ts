import { type Db, enquiries, messages } from '@switchboard/db';
import type { MessageStatus } from '@switchboard/shared';
import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import type { EventBus } from '../../events/bus.ts';
import { toMessageDto } from './dto.ts';

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
  await announceUpdate(ctx, m);
  return true;
}

/**
 * The recipient's server warned about a sent message (a delayed delivery, a soft bounce): the warning is kept
 * on it (`meta.delivery_warning`) for staff to see, and its status stays; a failed message is left as it is.
 */
export async function addDeliveryWarning(ctx: StatusCtx, id: string, warning: string): Promise<boolean> {
  const [m] = await ctx.db
    .update(messages)
    .set({ meta: sql`${messages.meta} || ${JSON.stringify({ delivery_warning: warning })}::jsonb` })
    .where(and(eq(messages.id, id), eq(messages.direction, 'out'), ne(messages.status, 'failed')))
    .returning();
  if (!m) return false;
  await announceUpdate(ctx, m);
  return true;
}

/** Tells open inboxes that a message changed. */
export async function announceUpdate(ctx: StatusCtx, m: typeof messages.$inferSelect): Promise<void> {
  const [e] = await ctx.db
    .select({ location_id: enquiries.location_id })
    .from(enquiries)
    .where(eq(enquiries.id, m.enquiry_id));
  ctx.events.emit('message.updated', {
    business_id: m.business_id,
    location_id: e!.location_id,
    message: toMessageDto(m, null),
  });
}
