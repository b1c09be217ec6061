import {
  businessMembers,
  callPresence,
  calls,
  customers,
  type DbOrTx,
  messages,
  users,
} from '@switchboard/db';
import { type CallTransfer, isUuid } from '@switchboard/shared';
import { and, eq, gt, or, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { TwilioApiError, type TwilioCredentials, twilioApi } from '../../channels/twilio/api.ts';
import { ringTwiml, voiceIdentity } from '../../channels/twilio/voice.ts';
import type { Context } from '../../context.ts';
import { AppError, notFound } from '../../errors.ts';
import { recordAudit } from '../../lib/audit.ts';
import { TransientSendError } from '../../lib/provider-errors.ts';
import { requireBusiness } from '../../plugins/auth.ts';
import { locationAccount } from '../channels/accounts.ts';
import { showCall } from './service.ts';

type CallRow = typeof calls.$inferSelect;
type Ctx = Pick<Context, 'db' | 'actor' | 'config'>;

/** How each calling provider hands a call to someone else; the sandbox registers its own when it runs. */
export type TransferCarrier = (
  call: CallRow,
  to: { user_id: string; caller_name: string | null },
) => Promise<void>;
const carriers = new WeakMap<object, TransferCarrier>();
export const registerTransferCarrier = (app: FastifyInstance, carrier: TransferCarrier) =>
  carriers.set(app.io, carrier);

/**
 * Twilio: the customer's leg of the call is pointed at the teammate's browser (the same `<Dial>` that rings
 * browsers), which ends the current browser's leg. On a call placed from a browser the customer is the child
 * leg, found through the API.
 */
async function twilioTransfer(
  app: FastifyInstance,
  call: CallRow,
  to: { user_id: string; caller_name: string | null },
): Promise<void> {
  const account = await locationAccount(app.db, app.config.encryptionKey, call.location_id, 'twilio');
  if (!account) throw new AppError('unprocessable', 'This location’s Twilio account is no longer connected.');
  const creds: TwilioCredentials = {
    base: app.config.providers.twilioApiBase,
    timeoutMs: app.config.providers.timeoutMs,
    account_sid: account.config.account_sid,
    auth_token: account.config.auth_token,
  };
  let customerLeg = call.provider_call_sid;
  if (call.direction === 'out') {
    const children = await twilioApi<{ calls?: { sid: string }[] }>(
      creds,
      'GET',
      '/Calls.json',
      new URLSearchParams({ ParentCallSid: call.provider_call_sid, Status: 'in-progress' }),
    );
    const child = children.calls?.[0]?.sid;
    if (!child) throw new AppError('unprocessable', 'The customer is no longer on this call.');
    customerLeg = child;
  }
  const twiml = ringTwiml({
    publicUrl: app.config.publicUrl,
    clients: [
      {
        identity: voiceIdentity(to.user_id, call.location_id),
        parameters: {
          enquiryId: call.enquiry_id,
          callerName: to.caller_name ?? call.from_number,
          callId: call.id,
        },
      },
    ],
  });
  await twilioApi(
    creds,
    'POST',
    `/Calls/${encodeURIComponent(customerLeg)}.json`,
    new URLSearchParams({ Twiml: twiml }),
  );
}

/**
 * `POST /calls/transfer`: the person on a call hands it to a teammate who is available at the location. Their
 * browser rings with the caller's name; whoever answers takes the call (the call shows nobody on it until
 * then). If they do not answer, an incoming caller is offered voicemail, as when nobody answers at first.
 */
export async function transferCall(
  app: FastifyInstance,
  ctx: Ctx,
  input: { call_sid: string; call_id?: string; user_id: string },
) {
  const a = requireBusiness(ctx.actor);
  const named = input.call_id && isUuid(input.call_id) ? eq(calls.id, input.call_id) : undefined;
  const [call] = await ctx.db
    .select()
    .from(calls)
    .where(
      and(
        eq(calls.business_id, a.business_id),
        named
          ? or(named, eq(calls.provider_call_sid, input.call_sid))
          : eq(calls.provider_call_sid, input.call_sid),
      ),
    );
  if (!call) throw notFound('Call');
  if (call.ended_at || call.status !== 'in-progress')
    throw new AppError('unprocessable', 'Only a call in progress can be transferred.');
  if (call.user_id !== a.user_id)
    throw new AppError('forbidden', 'Only the person on the call can transfer it.');
  if (input.user_id === a.user_id)
    throw new AppError('unprocessable', 'Choose a teammate to transfer the call to.');
  const [teammate] = await ctx.db
    .select({ id: users.id, full_name: users.full_name })
    .from(businessMembers)
    .innerJoin(users, eq(users.id, businessMembers.user_id))
    .where(and(eq(businessMembers.business_id, a.business_id), eq(businessMembers.user_id, input.user_id)));
  if (!teammate) throw notFound('Teammate');
  const [free] = await ctx.db
    .select({ user_id: callPresence.user_id })
    .from(callPresence)
    .where(
      and(
        eq(callPresence.user_id, teammate.id),
        eq(callPresence.location_id, call.location_id),
        gt(callPresence.available_until, new Date()),
      ),
    );
  if (!free)
    throw new AppError('unprocessable', `${teammate.full_name} is not available for calls right now.`);
  const [customer] = await ctx.db
    .select({ name: customers.name })
    .from(customers)
    .where(eq(customers.id, call.customer_id));
  const to = { user_id: teammate.id, caller_name: customer?.name ?? null };

  const carrier = call.provider === 'twilio' ? null : carriers.get(app.io);
  if (call.provider !== 'twilio' && !carrier)
    throw new AppError('unprocessable', 'This call cannot be transferred.');
  // Nobody is on the call until the teammate answers (their answer takes it).
  const [released] = await ctx.db
    .update(calls)
    .set({ user_id: null })
    .where(and(eq(calls.id, call.id), eq(calls.user_id, a.user_id)))
    .returning();
  if (!released) throw new AppError('conflict', 'The call changed hands a moment ago.');
  try {
    if (carrier) await carrier(released, to);
    else await twilioTransfer(app, released, to);
  } catch (error) {
    // The transfer never happened: the call is still the transferrer's.
    await ctx.db.update(calls).set({ user_id: a.user_id }).where(eq(calls.id, call.id));
    if (error instanceof TransientSendError || (error instanceof TwilioApiError && error.transient))
      throw new AppError('service_unavailable', 'Twilio is not answering right now. Try again in a moment.');
    if (error instanceof TwilioApiError) throw new AppError('unprocessable', error.message);
    throw error;
  }
  await recordAudit(ctx.db, a, 'call.transferred', { target: call.id, detail: { to: teammate.id } });
  await recordTransfer(ctx.db, released.message_id, a.user_id, teammate);
  await showCall(app, released);
  return { call_id: call.id, user_id: teammate.id, full_name: teammate.full_name };
}

/**
 * The hand-over kept on the call's message, after any before it, so the conversation says who answered first
 * and whom the call went to (the call itself only knows who has it now).
 */
async function recordTransfer(
  db: DbOrTx,
  messageId: string,
  fromId: string,
  to: { id: string; full_name: string },
): Promise<void> {
  const [from] = await db
    .select({ id: users.id, full_name: users.full_name })
    .from(users)
    .where(eq(users.id, fromId));
  if (!from) return;
  const entry: CallTransfer = {
    from,
    to: { id: to.id, full_name: to.full_name },
    at: new Date().toISOString(),
  };
  await db
    .update(messages)
    .set({
      meta: sql`${messages.meta} || jsonb_build_object('call_transfers',
        coalesce(${messages.meta} -> 'call_transfers', '[]'::jsonb) || jsonb_build_array(${JSON.stringify(entry)}::jsonb))`,
    })
    .where(eq(messages.id, messageId));
}
