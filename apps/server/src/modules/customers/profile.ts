import {
  customerNotes,
  customers,
  type DbOrTx,
  enquiries,
  locations,
  messages,
  queryRows,
  users,
} from '@switchboard/db';
import type {
  Customer,
  CustomerEnquiry,
  CustomerListQuery,
  CustomerPage,
  CustomerPatchRequest,
} from '@switchboard/shared';
import { isUuid } from '@switchboard/shared';
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { Context } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { atTheirLocations, type BusinessActor, requireBusiness } from '../../plugins/auth.ts';
import { toEnquiryRow } from '../enquiries/dto.ts';
import { assertOwnLabels } from '../labels/service.ts';
import { type CustomerScope, customersTheySee } from './scope.ts';
import { phoneOrRefuse } from './service.ts';

type Ctx = Pick<Context, 'db' | 'actor' | 'events'>;
type CustomerRow = typeof customers.$inferSelect;

export const customerNotFound = () => new AppError('not_found', 'Customer not found.');
const iso = (d: Date | string) => new Date(d).toISOString();

/**
 * One customer of the business, optionally locked for a change: another business's id, or one with no enquiry at
 * the locations the acting staff member works at, is not found.
 */
export async function loadCustomer(
  db: DbOrTx,
  scope: CustomerScope,
  id: string,
  lock = false,
): Promise<CustomerRow> {
  if (!isUuid(id)) throw customerNotFound();
  const q = db
    .select()
    .from(customers)
    .where(and(eq(customers.id, id), customersTheySee(scope)));
  const [row] = lock ? await q.for('update') : await q;
  if (!row) throw customerNotFound();
  return row;
}

/**
 * `GET /customers`: the customers the person sees, the most recently heard from first (their enquiries counted
 * at the person's locations); `q` matches name, phone or email.
 */
export async function listCustomers({ db, actor }: Ctx, query: CustomerListQuery): Promise<CustomerPage> {
  const a = requireBusiness(actor);
  const pattern = query.q ? `%${query.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const atTheirs = atTheirLocations(a, enquiries.location_id);
  const rows = await queryRows<CustomerRow & { last_message_at: string | null; enquiry_count: number }>(
    db,
    sql`select customers.*, s.last_message_at, coalesce(s.n, 0)::int as enquiry_count
        from customers
        left join lateral (
          select max(enquiries.last_message_at) as last_message_at, count(*) as n from enquiries
          where enquiries.customer_id = customers.id ${atTheirs ? sql`and ${atTheirs}` : sql``}
        ) s on true
        where ${customersTheySee(a)}
          ${pattern ? sql`and (customers.name ilike ${pattern} or customers.email ilike ${pattern} or customers.phone ilike ${pattern})` : sql``}
        order by s.last_message_at desc nulls last, customers.created_at desc, customers.id
        limit ${query.page_size + 1} offset ${(query.page - 1) * query.page_size}`,
  );
  return {
    items: rows.slice(0, query.page_size).map((c) => ({
      id: c.id,
      name: c.name,
      phone: c.phone,
      email: c.email,
      sms_opted_out: c.sms_opted_out,
      created_at: iso(c.created_at),
      last_message_at: c.last_message_at ? iso(c.last_message_at) : null,
      enquiry_count: Number(c.enquiry_count),
    })),
    page: query.page,
    page_size: query.page_size,
    has_more: rows.length > query.page_size,
  };
}

/** `GET /customers/{id}`: the person, where they first came from, and all their enquiries (newest first). */
export async function getCustomer({ db, actor }: Ctx, id: string): Promise<Customer> {
  const a = requireBusiness(actor);
  return describe(db, a, await loadCustomer(db, a, id));
}

/** The customer with their enquiries at the locations the viewer works at. */
async function describe(db: DbOrTx, a: BusinessActor, c: CustomerRow): Promise<Customer> {
  const rows = await db
    .select({ e: enquiries, location_name: locations.name })
    .from(enquiries)
    .innerJoin(locations, eq(locations.id, enquiries.location_id))
    .where(and(eq(enquiries.customer_id, c.id), atTheirLocations(a, enquiries.location_id)))
    .orderBy(desc(enquiries.last_message_at), desc(enquiries.id));
  const list: CustomerEnquiry[] = rows.map(({ e, location_name }) => ({
    id: e.id,
    channel: e.channel,
    status: e.status,
    location_id: e.location_id,
    location_name,
    title: e.title,
    assigned_to: e.assigned_to,
    created_at: iso(e.created_at),
    last_message_at: iso(e.last_message_at),
    last_message: e.last_message_preview,
  }));
  const first = rows.map((r) => r.e).sort((x, y) => +new Date(x.created_at) - +new Date(y.created_at))[0];
  // The page a website chat began on, kept with its first message.
  const [opening] = first
    ? await db
        .select({ landing: sql<string | null>`${messages.meta} ->> 'landing_page'` })
        .from(messages)
        .where(and(eq(messages.enquiry_id, first.id), eq(messages.direction, 'in')))
        .orderBy(asc(messages.created_at))
        .limit(1)
    : [];
  const notes = await db
    .select({ n: customerNotes, author: users.full_name })
    .from(customerNotes)
    .leftJoin(users, eq(users.id, customerNotes.user_id))
    .where(eq(customerNotes.customer_id, c.id))
    .orderBy(desc(customerNotes.created_at), desc(customerNotes.id));
  return {
    id: c.id,
    name: c.name,
    phone: c.phone,
    email: c.email,
    sms_opted_out: c.sms_opted_out,
    created_at: iso(c.created_at),
    last_message_at: list[0]?.last_message_at ?? null,
    enquiry_count: list.length,
    labels: c.labels,
    notes: notes.map(({ n, author }) => ({
      id: n.id,
      body: n.body,
      user_id: n.user_id,
      author,
      created_at: iso(n.created_at),
    })),
    external_ids: c.external_ids,
    first_seen: first
      ? {
          channel: first.channel,
          source: first.source,
          medium: first.medium,
          campaign: first.campaign,
          landing_page: opening?.landing ?? null,
          at: iso(first.created_at),
        }
      : null,
    enquiries: list,
  };
}

/**
 * `PATCH /customers/{id}`: a bare number becomes a person. A phone another customer already has is refused
 * with a pointer to merging; a customer always keeps at least one way to reach them.
 */
export async function updateCustomer(ctx: Ctx, id: string, patch: CustomerPatchRequest): Promise<Customer> {
  const a = requireBusiness(ctx.actor);
  const set: Partial<typeof customers.$inferInsert> = {};
  if (patch.name !== undefined) {
    set.name = patch.name;
    set.first_name = patch.name?.split(/\s+/)[0] ?? null;
  }
  if (patch.phone !== undefined) set.phone = patch.phone === null ? null : phoneOrRefuse(patch.phone);
  if (patch.email !== undefined) set.email = patch.email;
  const updated = await ctx.db.transaction(async (tx) => {
    const before = await loadCustomer(tx, a, id, true);
    if (patch.labels !== undefined) set.labels = await assertOwnLabels(tx, a.business_id, patch.labels);
    const after = { ...before, ...set };
    if (!after.phone && !after.email && !after.external_key) {
      throw new AppError(
        'unprocessable',
        'A customer needs a phone number or an email address to be reached on.',
      );
    }
    try {
      const [row] = await tx.update(customers).set(set).where(eq(customers.id, id)).returning();
      return row!;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      throw new AppError(
        'conflict',
        `Another customer already has this ${patch.phone !== undefined ? 'phone number' : 'email address'}. Merge the two instead.`,
      );
    }
  });
  await announceEnquiries(ctx, a.business_id, updated);
  return describe(ctx.db, a, updated);
}

/**
 * `POST /customers/{id}/merge`: the other record of the same person is folded into this one — their
 * enquiries, messages and notes move here, their labels are added, details this one lacks are taken from it, channel ids are combined, an
 * SMS opt-out on either is kept — and the other record is removed.
 */
export async function mergeCustomers(ctx: Ctx, id: string, otherId: string): Promise<Customer> {
  const a = requireBusiness(ctx.actor);
  if (id === otherId) throw new AppError('unprocessable', 'A customer cannot be merged with themselves.');
  const merged = await ctx.db.transaction(async (tx) => {
    // Both rows locked in one order, so two merges of the same pair take turns.
    const [first, second] = [id, otherId].sort();
    const rows = new Map<string, CustomerRow>();
    for (const key of [first!, second!]) rows.set(key, await loadCustomer(tx, a, key, true));
    const keep = rows.get(id)!;
    const other = rows.get(otherId)!;
    await tx.update(enquiries).set({ customer_id: keep.id }).where(eq(enquiries.customer_id, other.id));
    await tx.update(messages).set({ customer_id: keep.id }).where(eq(messages.customer_id, other.id));
    await tx
      .update(customerNotes)
      .set({ customer_id: keep.id })
      .where(eq(customerNotes.customer_id, other.id));
    await tx.delete(customers).where(eq(customers.id, other.id));
    const [row] = await tx
      .update(customers)
      .set({
        name: keep.name ?? other.name,
        first_name: keep.name ? keep.first_name : other.first_name,
        phone: keep.phone ?? other.phone,
        email: keep.email ?? other.email,
        external_ids: { ...other.external_ids, ...keep.external_ids },
        external_key: keep.external_key ?? other.external_key,
        sms_opted_out: keep.sms_opted_out || other.sms_opted_out,
        labels: [...new Set([...keep.labels, ...other.labels])],
      })
      .where(eq(customers.id, keep.id))
      .returning();
    return row!;
  });
  await announceEnquiries(ctx, a.business_id, merged);
  return describe(ctx.db, a, merged);
}

/** Open screens show the customer's new name or number in their enquiries at once. */
async function announceEnquiries(ctx: Ctx, businessId: string, c: CustomerRow): Promise<void> {
  const rows = await ctx.db
    .select()
    .from(enquiries)
    .where(and(eq(enquiries.customer_id, c.id), eq(enquiries.status, 'open')))
    .orderBy(asc(enquiries.created_at))
    .limit(50);
  for (const e of rows)
    ctx.events.emit('enquiry.updated', { business_id: businessId, enquiry: toEnquiryRow(e, c) });
}
