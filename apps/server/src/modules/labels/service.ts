import { customers, enquiries, labels } from '@switchboard/db';
import { isUuid, type Label, type LabelRequest } from '@switchboard/shared';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Context } from '../../context.ts';
import { AppError, fieldError } from '../../errors.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { requireBusiness, requireOwner } from '../../plugins/auth.ts';

type Ctx = Pick<Context, 'db' | 'actor'>;

const toLabel = (row: typeof labels.$inferSelect): Label => ({
  id: row.id,
  name: row.name,
  colour: row.colour,
});
const labelNotFound = () => new AppError('not_found', 'Label not found.');

/** `GET /labels`: the business's labels by name; everyone at the business uses them. */
export async function listLabels({ db, actor }: Ctx): Promise<Label[]> {
  const a = requireBusiness(actor);
  const rows = await db
    .select()
    .from(labels)
    .where(eq(labels.business_id, a.business_id))
    .orderBy(asc(labels.name));
  return rows.map(toLabel);
}

/** `POST /labels` (owner): a new label; a name the business already uses is refused. */
export async function createLabel({ db, actor }: Ctx, input: LabelRequest): Promise<Label> {
  const a = requireOwner(actor, 'manage labels');
  try {
    const [row] = await db
      .insert(labels)
      .values({ business_id: a.business_id, name: input.name, colour: input.colour.toUpperCase() })
      .returning();
    return toLabel(row!);
  } catch (error) {
    if (isUniqueViolation(error))
      throw fieldError('conflict', 'name', `There is already a label called “${input.name}”.`);
    throw error;
  }
}

/** `PUT /labels/{id}` (owner): renamed or recoloured everywhere it is used. */
export async function updateLabel({ db, actor }: Ctx, id: string, input: LabelRequest): Promise<Label> {
  const a = requireOwner(actor, 'manage labels');
  if (!isUuid(id)) throw labelNotFound();
  try {
    const [row] = await db
      .update(labels)
      .set({ name: input.name, colour: input.colour.toUpperCase() })
      .where(and(eq(labels.id, id), eq(labels.business_id, a.business_id)))
      .returning();
    if (!row) throw labelNotFound();
    return toLabel(row);
  } catch (error) {
    if (isUniqueViolation(error))
      throw fieldError('conflict', 'name', `There is already a label called “${input.name}”.`);
    throw error;
  }
}

/** `DELETE /labels/{id}` (owner): the label goes, and comes off every enquiry and customer that had it. */
export async function deleteLabel({ db, actor }: Ctx, id: string): Promise<void> {
  const a = requireOwner(actor, 'manage labels');
  if (!isUuid(id)) throw labelNotFound();
  await db.transaction(async (tx) => {
    const [row] = await tx
      .delete(labels)
      .where(and(eq(labels.id, id), eq(labels.business_id, a.business_id)))
      .returning();
    if (!row) throw labelNotFound();
    await tx
      .update(enquiries)
      .set({ labels: sql`array_remove(${enquiries.labels}, ${id}::uuid)` })
      .where(and(eq(enquiries.business_id, a.business_id), sql`${enquiries.labels} @> array[${id}::uuid]`));
    await tx
      .update(customers)
      .set({ labels: sql`array_remove(${customers.labels}, ${id}::uuid)` })
      .where(and(eq(customers.business_id, a.business_id), sql`${customers.labels} @> array[${id}::uuid]`));
  });
}

/** The label ids, when every one is the business's; else a 422 naming the problem. */
export async function assertOwnLabels(db: Ctx['db'], businessId: string, ids: string[]): Promise<string[]> {
  const unique = [...new Set(ids)];
  if (!unique.length) return [];
  const rows = await db
    .select({ id: labels.id })
    .from(labels)
    .where(and(eq(labels.business_id, businessId), sql`${labels.id} = any(${sql.param(unique)}::uuid[])`));
  if (rows.length !== unique.length)
    throw new AppError('unprocessable', 'A label was not found. Refresh and try again.');
  return unique;
}
