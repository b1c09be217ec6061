import { businessEmails, businessPhones, type DbOrTx } from '@switchboard/db';
import { isUuid, type Page, type PageOf } from '@switchboard/shared';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { DbActor } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { recordAudit } from '../../lib/audit.ts';
import { type BusinessActor, requireBusiness, requireOwner } from '../../plugins/auth.ts';
import { assertOwnLocation } from '../locations/service.ts';

/**
 * The business's own phone numbers and email addresses: the same small list twice, each entry optionally tied
 * to a location. One service, parameterised by the kind.
 */
const KINDS = {
  phone: {
    table: businessPhones,
    field: 'phone',
    noun: 'Phone number',
    manage: 'manage the business phone numbers',
  },
  email: {
    table: businessEmails,
    field: 'email',
    noun: 'Email address',
    manage: 'manage the business email addresses',
  },
} as const;

type Kinds = typeof KINDS;
export type ContactKind = keyof Kinds;
type Field<K extends ContactKind> = Kinds[K]['field'];
type Row<K extends ContactKind> = Kinds[K]['table']['$inferSelect'];

export type ContactJson<K extends ContactKind> = {
  id: string;
  label: string | null;
  location_id: string | null;
  created_at: Date;
} & Record<Field<K>, string>;
export type ContactInput<K extends ContactKind> = {
  label?: string | null;
  location_id?: string | null;
} & Record<Field<K>, string>;

export type PhoneJson = ContactJson<'phone'>;
export type EmailJson = ContactJson<'email'>;

export function contactsOf<K extends ContactKind>(kind: K) {
  const { field, noun, manage } = KINDS[kind];
  // Both tables have the same columns but the one named by `field`; drizzle types each table on its own.
  const table = KINDS[kind].table as typeof businessPhones;
  const toJson = (row: Row<K>): ContactJson<K> =>
    ({
      id: row.id,
      label: row.label,
      [field]: (row as Record<string, unknown>)[field],
      location_id: row.location_id,
      created_at: row.created_at,
    }) as ContactJson<K>;

  async function find(db: DbOrTx, a: BusinessActor, id: string): Promise<Row<K>> {
    if (!isUuid(id)) throw notFound(noun);
    const [row] = await db
      .select()
      .from(table)
      .where(and(eq(table.id, id), eq(table.business_id, a.business_id)));
    if (!row) throw notFound(noun);
    return row as Row<K>;
  }

  return {
    async list({ db, actor }: DbActor, page: Page): Promise<PageOf<ContactJson<K>>> {
      const { business_id } = requireBusiness(actor);
      const mine = eq(table.business_id, business_id);
      const rows = await db
        .select()
        .from(table)
        .where(mine)
        .orderBy(desc(table.created_at), desc(table.id))
        .limit(page.page_size)
        .offset((page.page - 1) * page.page_size);
      const [count] = await db.select({ n: sql<number>`count(*)::int` }).from(table).where(mine);
      return {
        items: rows.map((r) => toJson(r as Row<K>)),
        page: page.page,
        page_size: page.page_size,
        total: count?.n ?? 0,
      };
    },

    async create({ db, actor }: DbActor, input: ContactInput<K>): Promise<ContactJson<K>> {
      const a = requireOwner(actor, manage);
      return db.transaction(async (tx) => {
        await assertOwnLocation(tx, a, input.location_id);
        const [row] = await tx
          .insert(table)
          .values({ ...input, business_id: a.business_id } as typeof table.$inferInsert)
          .returning();
        await recordAudit(tx, a, `business.${kind}.create`, { target: row!.id, detail: input });
        return toJson(row as Row<K>);
      });
    },

    async update(
      { db, actor }: DbActor,
      id: string,
      patch: Partial<ContactInput<K>>,
    ): Promise<ContactJson<K>> {
      const a = requireOwner(actor, manage);
      return db.transaction(async (tx) => {
        const current = await find(tx, a, id);
        if (Object.keys(patch).length === 0) return toJson(current);
        await assertOwnLocation(tx, a, patch.location_id);
        const [row] = await tx
          .update(table)
          .set(patch)
          .where(and(eq(table.id, current.id), eq(table.business_id, a.business_id)))
          .returning();
        await recordAudit(tx, a, `business.${kind}.update`, { target: current.id, detail: patch });
        return toJson(row as Row<K>);
      });
    },

    async remove({ db, actor }: DbActor, id: string): Promise<{ id: string; deleted: true }> {
      const a = requireOwner(actor, manage);
      return db.transaction(async (tx) => {
        const current = await find(tx, a, id);
        await tx.delete(table).where(and(eq(table.id, current.id), eq(table.business_id, a.business_id)));
        await recordAudit(tx, a, `business.${kind}.delete`, {
          target: current.id,
          detail: { [field]: (current as Record<string, unknown>)[field] },
        });
        return { id: current.id, deleted: true as const };
      });
    },
  };
}

export const businessPhoneNumbers = contactsOf('phone');
export const businessEmailAddresses = contactsOf('email');
