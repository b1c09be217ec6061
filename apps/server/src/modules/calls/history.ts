import { queryRows } from '@switchboard/db';
import type { CallItem, CallListQuery } from '@switchboard/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { Context } from '../../context.ts';
import { uploadContentUrl } from '../../lib/storage.ts';
import { requireBusiness } from '../../plugins/auth.ts';
import { businessTimezone, parseRange } from '../enquiries/service.ts';

type Row = {
  id: string;
  direction: 'in' | 'out';
  from_number: string;
  to_number: string;
  status: string;
  duration: number | null;
  voicemail: boolean;
  user_id: string | null;
  user_name: string | null;
  created_at: string | Date;
  enquiry_id: string;
  message_id: string;
  location_id: string;
  location_name: string | null;
  customer_id: string;
  customer_name: string | null;
  customer_phone: string | null;
  source: string | null;
  medium: string | null;
  campaign: string | null;
  recording_upload_id: string | null;
};

/**
 * Where a call came from: the campaign of the tracking number the customer called, else how the
 * customer first found the business (their first enquiry's attribution).
 */
const FIRST_ENQUIRY = sql`left join tracking_numbers t
  on c.direction = 'in' and t.business_id = c.business_id and t.number = c.to_number
left join lateral (
  select e.source, e.medium, e.campaign from enquiries e
  where e.customer_id = c.customer_id order by e.created_at asc, e.id asc limit 1
) fe on true`;
const SOURCE = sql`coalesce(t.source, fe.source)`;
const MEDIUM = sql`case when t.id is null then fe.medium else t.medium end`;
const CAMPAIGN = sql`case when t.id is null then fe.campaign else t.campaign end`;

/** Incoming and taken by nobody: ended unanswered, or a voicemail left. */
const MISSED = sql`(c.direction = 'in' and c.user_id is null
  and (c.voicemail or c.status in ('completed', 'busy', 'no-answer', 'failed', 'canceled')))`;

/**
 * `GET /calls`: the business's calls, newest first, with the spec's phone-call filters. A call's source, medium
 * and campaign are the tracking number's it was made to, else how its customer first found the business.
 */
export async function listCalls({ db, actor }: Pick<Context, 'db' | 'actor'>, query: CallListQuery) {
  const a = requireBusiness(actor);
  const where: SQL[] = [sql`c.business_id = ${a.business_id}::uuid`];
  if (query.location_id) where.push(sql`c.location_id = ${query.location_id}::uuid`);
  // A staff member limited to some locations sees the calls of those only.
  if (a.location_ids) {
    const theirs = a.location_ids.map((id) => sql`${id}::uuid`);
    where.push(theirs.length ? sql`c.location_id in (${sql.join(theirs, sql`, `)})` : sql`false`);
  }
  if (query.direction) where.push(sql`c.direction = ${query.direction}`);
  if (query.status === 'missed') where.push(MISSED);
  else if (query.status) where.push(sql`c.status = ${query.status}`);
  if (query.source) where.push(sql`${SOURCE} = ${query.source}`);
  if (query.medium) where.push(sql`${MEDIUM} = ${query.medium}`);
  if (query.campaign) where.push(sql`${CAMPAIGN} = ${query.campaign}`);
  if (query.start_date || query.end_date) {
    const bounds = parseRange(
      query.start_date ?? query.end_date!,
      query.end_date ?? query.start_date!,
      await businessTimezone(db, a.business_id),
    );
    where.push(sql`c.created_at >= ${bounds.from.toISOString()}::timestamptz`);
    where.push(sql`c.created_at <= ${bounds.to.toISOString()}::timestamptz`);
  }
  const rows = await queryRows<Row>(
    db,
    sql`select c.id, c.direction, c.from_number, c.to_number, c.status, c.duration, c.voicemail, c.user_id,
          u.full_name as user_name, c.created_at, c.enquiry_id, c.message_id, c.location_id, l.name as location_name,
          c.customer_id, cu.name as customer_name, cu.phone as customer_phone, ${SOURCE} as source, ${MEDIUM} as medium, ${CAMPAIGN} as campaign,
          c.recording_upload_id
        from calls c
        join locations l on l.id = c.location_id
        join customers cu on cu.id = c.customer_id
        left join users u on u.id = c.user_id
        ${FIRST_ENQUIRY}
        where ${sql.join(where, sql` and `)}
        order by c.created_at desc, c.id desc
        limit ${query.page_size} offset ${(query.page - 1) * query.page_size}`,
  );
  const [count] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from calls c ${FIRST_ENQUIRY} where ${sql.join(where, sql` and `)}`,
  );
  const items: CallItem[] = rows.map((r) => ({
    id: r.id,
    direction: r.direction,
    from: r.from_number,
    to: r.to_number,
    status: r.status,
    duration: r.duration,
    voicemail: r.voicemail,
    answered: r.direction === 'out' ? r.status === 'completed' : r.user_id !== null,
    created_at: new Date(r.created_at).toISOString(),
    enquiry_id: r.enquiry_id,
    message_id: r.message_id,
    location: { id: r.location_id, name: r.location_name },
    customer: { id: r.customer_id, name: r.customer_name, phone: r.customer_phone },
    user: r.user_id && r.user_name ? { id: r.user_id, full_name: r.user_name } : null,
    source: r.source,
    medium: r.medium,
    campaign: r.campaign,
    recording: r.recording_upload_id
      ? { id: r.recording_upload_id, url: uploadContentUrl({ id: r.recording_upload_id }) }
      : null,
  }));
  return { items, page: query.page, page_size: query.page_size, total: count?.n ?? 0 };
}
