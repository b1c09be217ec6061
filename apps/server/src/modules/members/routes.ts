import { businessMembers, users } from '@switchboard/db';
import { answer, MemberList } from '@switchboard/shared';
import { asc, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Context } from '../../context.ts';
import { requireBusiness } from '../../plugins/auth.ts';

/** The people of the selected business: who an enquiry can be assigned to. */
export async function listMembers({ db, actor }: Pick<Context, 'db' | 'actor'>) {
  const a = requireBusiness(actor);
  return db
    .select({
      user_id: users.id,
      full_name: users.full_name,
      email: users.email,
      avatar: users.avatar,
      role: businessMembers.role,
    })
    .from(businessMembers)
    .innerJoin(users, eq(users.id, businessMembers.user_id))
    .where(eq(businessMembers.business_id, a.business_id))
    .orderBy(asc(users.full_name));
}

export const memberRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);
  app.get('/business/members', { schema: { response: { 200: answer(MemberList) } } }, async (request) => ({
    body: { items: await listMembers(request.ctx) },
  }));
};
