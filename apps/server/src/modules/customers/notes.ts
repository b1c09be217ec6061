import { customerNotes } from '@switchboard/db';
import { type Customer, isUuid } from '@switchboard/shared';
import { and, eq } from 'drizzle-orm';
import type { Context } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { requireBusiness, requireOwner } from '../../plugins/auth.ts';
import { getCustomer, loadCustomer } from './profile.ts';

type Ctx = Pick<Context, 'db' | 'actor' | 'events'>;

/** `POST /customers/{id}/notes`: a note about the person, kept beside every conversation with them. */
export async function addCustomerNote(ctx: Ctx, customerId: string, body: string): Promise<Customer> {
  const a = requireBusiness(ctx.actor);
  await ctx.db.transaction(async (tx) => {
    await loadCustomer(tx, a, customerId);
    await tx
      .insert(customerNotes)
      .values({ business_id: a.business_id, customer_id: customerId, user_id: a.user_id, body });
  });
  return getCustomer(ctx, customerId);
}

/** `DELETE /customers/{id}/notes/{noteId}`: by the teammate who wrote it, or the owner. */
export async function deleteCustomerNote(ctx: Ctx, customerId: string, noteId: string): Promise<Customer> {
  const a = requireBusiness(ctx.actor);
  await loadCustomer(ctx.db, a, customerId);
  const missing = () => new AppError('not_found', 'Note not found.');
  if (!isUuid(noteId)) throw missing();
  const [note] = await ctx.db
    .select({ user_id: customerNotes.user_id })
    .from(customerNotes)
    .where(
      and(
        eq(customerNotes.id, noteId),
        eq(customerNotes.customer_id, customerId),
        eq(customerNotes.business_id, a.business_id),
      ),
    );
  if (!note) throw missing();
  if (note.user_id !== a.user_id) requireOwner(a, 'delete a note a teammate wrote');
  await ctx.db.delete(customerNotes).where(eq(customerNotes.id, noteId));
  return getCustomer(ctx, customerId);
}
