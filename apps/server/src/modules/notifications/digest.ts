import { queryRows, users } from '@switchboard/db';
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import type { Deps } from '../../context.ts';
import { quoted } from '../../lib/mail-text.ts';

/** How often every node looks for owners to email (each email is claimed by one node). */
export const DIGEST_SWEEP_MS = 60_000;

/** The most enquiries one email lists; the rest are in the inbox. */
const LISTED = 50;

type Waiting = {
  id: string;
  awaiting_since: Date | string;
  customer: string | null;
  location: string | null;
  business: string;
};

function minutesText(minutes: number): string {
  if (minutes >= 60 && minutes % 60 === 0) return minutes === 60 ? '1 hour' : `${minutes / 60} hours`;
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}

/**
 * Emails each owner who asked for it the open enquiries of their businesses that no one has answered for their
 * chosen number of minutes — each enquiry once, when it first passes that mark. Only businesses whose email is
 * confirmed: the owner's address is the one typed at sign-up, and until it is confirmed it may be anyone's. A
 * customer's name is what the customer typed, so it is quoted as theirs. Run every minute on every node:
 * the owner's row is claimed by moving `digest_sent_at` from what this node read, so one node sends each email.
 */
export async function sweepDigests(
  deps: Pick<Deps, 'db' | 'config' | 'mailer'>,
  now = new Date(),
): Promise<number> {
  const owners = await deps.db
    .select({
      id: users.id,
      email: users.email,
      full_name: users.full_name,
      minutes: users.digest_minutes,
      sent_at: users.digest_sent_at,
    })
    .from(users)
    .where(isNotNull(users.digest_minutes));
  let emailed = 0;
  for (const owner of owners) {
    const minutes = owner.minutes!;
    const due = new Date(now.getTime() - minutes * 60_000);
    // Passed the mark since the last email (or ever, for the first one).
    const since = owner.sent_at ? new Date(new Date(owner.sent_at).getTime() - minutes * 60_000) : null;
    const waiting = await queryRows<Waiting>(
      deps.db,
      sql`select e.id, e.awaiting_since, coalesce(c.name, c.phone, c.email) as customer, l.name as location,
                 b.name as business
          from businesses b
          join enquiries e on e.business_id = b.id
          join customers c on c.id = e.customer_id
          join locations l on l.id = e.location_id
          where b.owner_user_id = ${owner.id}::uuid and b.verified and e.status = 'open'
            and e.awaiting_since is not null and e.awaiting_since <= ${due.toISOString()}::timestamptz
            ${since ? sql`and e.awaiting_since > ${since.toISOString()}::timestamptz` : sql``}
          order by e.awaiting_since
          limit ${LISTED + 1}`,
    );
    if (waiting.length === 0) continue;
    const [claimed] = await deps.db
      .update(users)
      .set({ digest_sent_at: now })
      .where(
        and(
          eq(users.id, owner.id),
          owner.sent_at
            ? eq(users.digest_sent_at, new Date(owner.sent_at))
            : sql`${users.digest_sent_at} is null`,
        ),
      )
      .returning({ id: users.id });
    if (!claimed) continue;
    const listed = waiting.slice(0, LISTED);
    const n = waiting.length > LISTED ? `More than ${LISTED}` : String(listed.length);
    await deps.mailer.queue({
      to: owner.email,
      subject: `${n} ${listed.length === 1 && waiting.length === 1 ? 'enquiry has' : 'enquiries have'} waited over ${minutesText(minutes)} for an answer`,
      text: [
        `Hi ${owner.full_name || 'there'},`,
        '',
        `No one has answered ${waiting.length === 1 ? 'this enquiry' : 'these enquiries'} for over ${minutesText(minutes)}:`,
        '',
        ...listed.map((w) => {
          const waited = Math.round((now.getTime() - new Date(w.awaiting_since).getTime()) / 60_000);
          const place = w.location ? `${w.business}, ${w.location}` : w.business;
          return `- ${w.customer ? quoted(w.customer, 60) : 'A customer'} (${place}), waiting ${minutesText(waited)}: ${deps.config.publicUrl}/inbox/${w.id}`;
        }),
        '',
        `You get this email because you asked for it under Settings → Notifications: ${deps.config.publicUrl}/settings/notifications`,
      ].join('\n'),
    });
    emailed += 1;
  }
  return emailed;
}
