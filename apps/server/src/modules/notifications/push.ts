import { pushSubscriptions, queryRows } from '@switchboard/db';
import type { PushPayload, PushSubscriptionRequest, PushUnsubscribeRequest } from '@switchboard/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import webpush from 'web-push';
import type { z } from 'zod';
import type { Context, Deps } from '../../context.ts';
import { BlockedUrlError, guardedFetch } from '../../lib/guarded-fetch.ts';
import { rooms } from '../../plugins/realtime.ts';
import { vapidKeys } from './vapid.ts';

type PushCtx = Pick<Context, 'db' | 'actor'>;

/** `POST /push/subscriptions`: this browser is told of new enquiries and messages for the signed-in person. */
export async function subscribe(
  { db, actor }: PushCtx,
  input: z.output<typeof PushSubscriptionRequest>,
  userAgent: string | undefined,
) {
  const values = {
    user_id: actor.user_id,
    endpoint: input.endpoint,
    p256dh: input.keys.p256dh,
    auth: input.keys.auth,
    user_agent: userAgent?.slice(0, 300) ?? null,
  };
  // One browser, one subscription: whoever signs in on it last is the one told.
  await db
    .insert(pushSubscriptions)
    .values(values)
    .onConflictDoUpdate({ target: pushSubscriptions.endpoint, set: { ...values, updated_at: new Date() } });
  return { subscribed: true };
}

/** `DELETE /push/subscriptions`: this browser stops being told (signing out, or notifications turned off). */
export async function unsubscribe({ db, actor }: PushCtx, input: z.output<typeof PushUnsubscribeRequest>) {
  await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.endpoint, input.endpoint), eq(pushSubscriptions.user_id, actor.user_id)));
  return { subscribed: false };
}

/**
 * Who is pushed a new enquiry or message at a location: the business's people who work there, with
 * notifications and this kind on, a browser subscribed, and no tab of the app open in sight (a visible tab shows
 * it live and sounds it itself).
 */
export async function pushRecipients(
  app: FastifyInstance,
  input: { business_id: string; location_id: string; kind: PushPayload['kind'] },
): Promise<string[]> {
  const kindOn =
    input.kind === 'enquiry' ? sql`u.enable_enquiry_notification` : sql`u.enable_message_notification`;
  const people = await queryRows<{ id: string }>(
    app.db,
    sql`select u.id from business_members bm
        join users u on u.id = bm.user_id
        join businesses b on b.id = bm.business_id
        where bm.business_id = ${input.business_id}::uuid and u.enable_notifications and ${kindOn}
          and (bm.role = 'owner' or b.owner_user_id = u.id or bm.all_locations
               or exists (select 1 from location_members lm
                          where lm.location_id = ${input.location_id}::uuid and lm.user_id = u.id))
          and exists (select 1 from push_subscriptions ps where ps.user_id = u.id)`,
  );
  if (people.length === 0) return [];
  const sockets = await app.io.in(rooms.location(input.location_id)).fetchSockets();
  const watching = new Set(sockets.filter((s) => s.data.visible).map((s) => s.data.actor.user_id));
  return people.map((p) => p.id).filter((id) => !watching.has(id));
}

/** A push service's answer that the subscription is gone for good. */
const GONE = new Set([404, 410]);

/**
 * Sends one push to every browser a person subscribed, through the guarded fetch (the endpoint is the browser's
 * choice). A subscription the push service says is gone is removed; a busy or failing service is tried again
 * (the notification's tag makes a repeat replace, not add).
 */
export async function deliverPush(
  deps: Pick<Deps, 'db' | 'config' | 'log'>,
  job: { user_id: string; payload: PushPayload },
): Promise<{ sent: number; removed: number }> {
  const subs = await deps.db
    .select()
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.user_id, job.user_id));
  const keys = vapidKeys(deps.config);
  const body = JSON.stringify(job.payload);
  let sent = 0;
  let removed = 0;
  let retry: Error | null = null;
  for (const sub of subs) {
    const details = webpush.generateRequestDetails(
      { endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } },
      body,
      {
        vapidDetails: { subject: deps.config.push.subject, ...keys },
        TTL: 3600,
        urgency: 'high',
      },
    );
    const headers = Object.fromEntries(Object.entries(details.headers).map(([k, v]) => [k, String(v)]));
    try {
      const res = await guardedFetch(details.endpoint, {
        method: 'POST',
        headers,
        body: details.body ?? undefined,
        maxBytes: 64 * 1024,
        timeoutMs: 10_000,
        maxRedirects: 0,
        trustedOrigins: deps.config.push.trustedOrigins,
      });
      if (res.status >= 200 && res.status < 300) {
        sent += 1;
        await deps.db
          .update(pushSubscriptions)
          .set({ last_sent_at: new Date() })
          .where(eq(pushSubscriptions.id, sub.id));
      } else if (GONE.has(res.status)) {
        removed += 1;
        await deps.db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, sub.id));
      } else if (res.status === 429 || res.status >= 500) {
        retry = new Error(`the push service answered ${res.status}`);
      } else {
        deps.log.warn(
          { status: res.status, subscription: sub.id, answer: res.bytes.toString('utf8').slice(0, 300) },
          'a push service refused a push',
        );
      }
    } catch (error) {
      // An endpoint that may never be fetched (a private address) will never work: it is removed.
      if (error instanceof BlockedUrlError) {
        removed += 1;
        await deps.db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, sub.id));
        deps.log.warn({ subscription: sub.id, reason: error.message }, 'a push endpoint was refused');
      } else retry = error as Error;
    }
  }
  if (retry) throw retry;
  return { sent, removed };
}
