import { customers, enquiries, enquiryNotes, users } from '@switchboard/db';
import type { MentionList } from '@switchboard/shared';
import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { Context } from '../../context.ts';
import { atTheirLocations, requireBusiness } from '../../plugins/auth.ts';
import { toEnquiryRow } from '../enquiries/dto.ts';
import { loadEnquiry } from '../enquiries/service.ts';
import { toNote } from './service.ts';

type Ctx = Pick<Context, 'db' | 'actor'>;

/** The newest mentions a person's list shows; older ones stay in their threads. */
export const MENTIONS_SHOWN = 50;

/** Notes of the business naming the person, at the locations they work at. */
function mentionsOf(a: ReturnType<typeof requireBusiness>) {
  return and(
    eq(enquiryNotes.business_id, a.business_id),
    sql`${enquiryNotes.mentions} @> array[${a.user_id}]::uuid[]`,
    atTheirLocations(a, enquiries.location_id),
  );
}

const unreadOf = (userId: string) => sql`not (${enquiryNotes.mentions_read} @> array[${userId}]::uuid[])`;

async function unreadCount({ db, actor }: Ctx): Promise<number> {
  const a = requireBusiness(actor);
  const [row] = await db
    .select({ n: count() })
    .from(enquiryNotes)
    .innerJoin(enquiries, eq(enquiries.id, enquiryNotes.enquiry_id))
    .where(and(mentionsOf(a), unreadOf(a.user_id)));
  return Number(row?.n ?? 0);
}

/** `GET /mentions`: where teammates mentioned this person, newest first, the unread ones marked. */
export async function listMentions(ctx: Ctx): Promise<MentionList> {
  const a = requireBusiness(ctx.actor);
  const rows = await ctx.db
    .select({
      n: enquiryNotes,
      author: { full_name: users.full_name, avatar: users.avatar },
      e: enquiries,
      c: { name: customers.name, phone: customers.phone, email: customers.email },
    })
    .from(enquiryNotes)
    .innerJoin(enquiries, eq(enquiries.id, enquiryNotes.enquiry_id))
    .innerJoin(customers, eq(customers.id, enquiries.customer_id))
    .leftJoin(users, eq(users.id, enquiryNotes.user_id))
    .where(mentionsOf(a))
    .orderBy(desc(enquiryNotes.created_at), desc(enquiryNotes.id))
    .limit(MENTIONS_SHOWN);
  return {
    items: rows.map((r) => ({
      note: toNote(r.n, r.author),
      enquiry: toEnquiryRow(r.e, r.c),
      read: r.n.mentions_read.includes(a.user_id),
    })),
    unread: await unreadCount(ctx),
  };
}

/** `PUT /enquiries/{id}/mentions/read`: the person has seen where they were mentioned in this enquiry. */
export async function markMentionsRead(ctx: Ctx, enquiryId: string): Promise<{ unread: number }> {
  const a = requireBusiness(ctx.actor);
  const { e } = await loadEnquiry(ctx.db, a, enquiryId);
  await ctx.db
    .update(enquiryNotes)
    .set({ mentions_read: sql`array_append(${enquiryNotes.mentions_read}, ${a.user_id}::uuid)` })
    .where(
      and(
        eq(enquiryNotes.enquiry_id, e.id),
        sql`${enquiryNotes.mentions} @> array[${a.user_id}]::uuid[]`,
        unreadOf(a.user_id),
      ),
    );
  return { unread: await unreadCount(ctx) };
}
