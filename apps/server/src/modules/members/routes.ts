import { businessMembers, locationMembers, users } from '@switchboard/db';
import {
  AcceptInvitationRequest,
  answer,
  Deleted,
  IdParams,
  InvitationList,
  InvitationPreview,
  InviteRequest,
  LoginAnswer,
  MemberList,
  MemberLocationsRequest,
} from '@switchboard/shared';
import { asc, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Context } from '../../context.ts';
import { requireBusiness } from '../../plugins/auth.ts';
import {
  acceptInvitation,
  invite,
  listInvitations,
  previewInvitation,
  removeMember,
  revokeInvitation,
} from './invitations.ts';
import { setMemberLocations } from './locations.ts';

/** The people of the selected business (who an enquiry can be assigned to), with the locations they work at. */
export async function listMembers({ db, actor }: Pick<Context, 'db' | 'actor'>) {
  const a = requireBusiness(actor);
  const [people, given] = await Promise.all([
    db
      .select({
        user_id: users.id,
        full_name: users.full_name,
        email: users.email,
        avatar: users.avatar,
        role: businessMembers.role,
        all_locations: businessMembers.all_locations,
      })
      .from(businessMembers)
      .innerJoin(users, eq(users.id, businessMembers.user_id))
      .where(eq(businessMembers.business_id, a.business_id))
      .orderBy(asc(users.full_name)),
    db
      .select({ user_id: locationMembers.user_id, location_id: locationMembers.location_id })
      .from(locationMembers)
      .where(eq(locationMembers.business_id, a.business_id)),
  ]);
  return people.map((p) => {
    const all = p.all_locations || p.role === 'owner';
    return {
      ...p,
      all_locations: all,
      location_ids: all ? [] : given.filter((g) => g.user_id === p.user_id).map((g) => g.location_id),
    };
  });
}

const SecretParams = z.strictObject({ secret: z.string().min(1).max(200) });
const Invited = z.object({ sent: z.literal(true), email: z.string() });

export const memberRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = { db: app.db, config: app.config, limiter: app.limiter, mailer: app.mailer };

  // The emailed invitation link: no login (the invited person may have no account yet).
  app.get(
    '/business/invitations/:secret',
    { schema: { params: SecretParams, response: { 200: answer(InvitationPreview) } } },
    async (request) => ({ body: await previewInvitation(deps, request.params.secret) }),
  );
  app.post(
    '/business/invitations/:secret/accept',
    {
      schema: { params: SecretParams, body: AcceptInvitationRequest, response: { 200: answer(LoginAnswer) } },
    },
    async (request) => ({
      body: await acceptInvitation(deps, request.params.secret, request.body, {
        ip: request.ip,
        userAgent: request.headers['user-agent'],
      }),
    }),
  );

  app.register(async (scope) => {
    const authed = scope.withTypeProvider<ZodTypeProvider>();
    authed.addHook('onRequest', authed.authenticate);
    authed.get(
      '/business/members',
      { schema: { response: { 200: answer(MemberList) } } },
      async (request) => ({
        body: { items: await listMembers(request.ctx) },
      }),
    );
    authed.delete(
      '/business/members/:id',
      { schema: { params: IdParams, response: { 200: answer(Deleted) } } },
      async (request) => ({ body: await removeMember(request.ctx, request.params.id) }),
    );
    authed.put(
      '/business/members/:id/locations',
      { schema: { params: IdParams, body: MemberLocationsRequest, response: { 200: answer(MemberList) } } },
      async (request) => {
        await setMemberLocations(request.ctx, request.params.id, request.body);
        return { body: { items: await listMembers(request.ctx) } };
      },
    );
    authed.get(
      '/business/members/invitations',
      { schema: { response: { 200: answer(InvitationList) } } },
      async (request) => ({ body: await listInvitations(request.ctx) }),
    );
    authed.post(
      '/business/members/invitations',
      { schema: { body: InviteRequest, response: { 200: answer(Invited) } } },
      async (request) => ({ body: await invite(request.ctx, request.body, { ip: request.ip }) }),
    );
    authed.delete(
      '/business/members/invitations/:id',
      { schema: { params: IdParams, response: { 200: answer(Deleted) } } },
      async (request) => ({ body: await revokeInvitation(request.ctx, request.params.id) }),
    );
  });
};
