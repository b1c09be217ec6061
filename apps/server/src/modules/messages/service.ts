import {
  businesses,
  customers,
  type DbOrTx,
  drafts,
  enquiries,
  messages,
  queryRows,
  uploads,
  users,
} from '@switchboard/db';
import type {
  Attachment,
  DraftRequest,
  MessageDto,
  NewConversationRequest,
  SendMessageRequest,
} from '@switchboard/shared';
import { isValidEmail, sendingRefusal, threadOf } from '@switchboard/shared';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Context } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { messageSend } from '../../jobs/definitions/message-send.ts';
import { uploadContentUrl } from '../../lib/storage.ts';
import { type BusinessActor, requireBusiness } from '../../plugins/auth.ts';
import type { Jobs } from '../../plugins/jobs.ts';
import { findOrCreateCustomer, phoneOrRefuse } from '../customers/service.ts';
import { moveCounters, publishCounts } from '../enquiries/counters.ts';
import { toEnquiryRow } from '../enquiries/dto.ts';
import { recordResponse } from '../enquiries/facts.ts';
import { loadEnquiry, resolveLocation } from '../enquiries/service.ts';
import { FORM_CHANNELS } from '../forms/replies.ts';
import { uploadsTheySee } from '../uploads/scope.ts';
import { preview, toMessageDto } from './dto.ts';
import { refuseIfRepliedMeanwhile } from './replied-meanwhile.ts';
import { continuesThreadOf } from './threads.ts';

export type MessagesCtx = Pick<Context, 'db' | 'events' | 'jobs' | 'channels' | 'actor'>;
/** What the steps under a service use: the same parts without the actor. */
type Parts = Omit<MessagesCtx, 'actor'>;

export async function listMessages(
  { db, actor }: MessagesCtx,
  enquiryId: string,
  paging: { page: number; page_size: number },
): Promise<{ items: MessageDto[]; page: number; page_size: number; has_more: boolean }> {
  const a = requireBusiness(actor);
  await loadEnquiry(db, a, enquiryId);
  const rows = await db
    .select({ m: messages, u: { full_name: users.full_name, avatar: users.avatar } })
    .from(messages)
    .leftJoin(users, eq(users.id, messages.team_user_id))
    .where(eq(messages.enquiry_id, enquiryId))
    .orderBy(desc(messages.created_at), desc(messages.id))
    .limit(paging.page_size + 1)
    .offset((paging.page - 1) * paging.page_size);
  const has_more = rows.length > paging.page_size;
  // Pages run newest first; within a page the thread reads oldest to newest.
  const items = rows
    .slice(0, paging.page_size)
    .reverse()
    .map((r) => toMessageDto(r.m, r.u?.full_name === undefined || r.u === null ? null : r.u));
  return { items, page: paging.page, page_size: paging.page_size, has_more };
}

/**
 * Counts one outgoing message against the business's daily limit, in the business's own day. Refuses (and
 * changes nothing) when the business may not send at all (email not confirmed, trial or subscription over:
 * 403 saying what to do) or the limit is reached (429). The count is a single conditional UPDATE, so
 * concurrent sends cannot both take the last slot.
 */
export async function consumeDailyLimit(tx: DbOrTx, businessId: string): Promise<void> {
  const [account] = await tx
    .select({
      plan: businesses.plan,
      trial_end_date: businesses.trial_end_date,
      subscription_past_due: businesses.subscription_past_due,
      next_invoice_attempt: businesses.next_invoice_attempt,
      verified: businesses.verified,
    })
    .from(businesses)
    .where(eq(businesses.id, businessId));
  const refusal = account ? sendingRefusal(account) : null;
  if (refusal) throw new AppError(refusal.code, refusal.message);
  const rows = await queryRows<{ messages_sent_today: number }>(
    tx,
    sql`update businesses set
          messages_sent_today = case when messages_count_day = (now() at time zone timezone)::date
                                     then messages_sent_today + 1 else 1 end,
          messages_count_day = (now() at time zone timezone)::date
        where id = ${businessId}::uuid
          and (messages_count_day is distinct from (now() at time zone timezone)::date
               or messages_sent_today < message_limit)
        returning messages_sent_today`,
  );
  if (rows.length > 0) return;
  const [b] = await tx
    .select({ limit: businesses.message_limit })
    .from(businesses)
    .where(eq(businesses.id, businessId));
  throw new AppError(
    'message_limit_reached',
    `You have reached today's limit of ${b?.limit ?? 0} messages for this business. Sending resumes tomorrow.`,
  );
}

async function resolveAttachments(
  _ctx: Parts,
  tx: DbOrTx,
  a: BusinessActor,
  ids: string[],
): Promise<Attachment[]> {
  if (ids.length === 0) return [];
  const rows = await tx
    .select()
    .from(uploads)
    .where(and(uploadsTheySee(a), inArray(uploads.id, ids)));
  if (rows.length !== new Set(ids).size)
    throw new AppError('unprocessable', 'An attachment was not found. Upload it again.');
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => {
    const u = byId.get(id)!;
    return { id: u.id, name: u.name, content_type: u.content_type, size: u.size, url: uploadContentUrl(u) };
  });
}

async function teamUser(db: DbOrTx, userId: string) {
  const [u] = await db
    .select({ full_name: users.full_name, avatar: users.avatar })
    .from(users)
    .where(eq(users.id, userId));
  return u ?? null;
}

/** Stores a staff reply as `queued` (counted against the daily limit) and hands it to the send job. */
/** What a channel feature adds to an outgoing message: meta the adapter reads, the template chosen. */
export type OutboundExtras = {
  meta?: Record<string, unknown>;
  /** A reply the assistant wrote or rewrote that the person changed before sending. */
  user_modified?: boolean | null;
  template?: { name: string; language: string; variables: string[] };
};

export async function sendMessage(
  { actor, ...ctx }: MessagesCtx,
  enquiryId: string,
  input: z.infer<typeof SendMessageRequest>,
  extras: OutboundExtras = {},
): Promise<MessageDto> {
  const a = requireBusiness(actor);
  if (!input.message.trim() && input.attachments.length === 0) {
    throw new AppError('unprocessable', 'Write a message or attach a file before sending.');
  }
  const result = await ctx.db.transaction(async (tx) => {
    const { e, c } = await loadEnquiry(tx, a, enquiryId, true);
    // A retry of a send whose answer never arrived (the enquiry's row lock makes retries take turns): the
    // message stored the first time is the answer, and nothing is sent twice.
    if (input.client_id) {
      const [earlier] = await tx
        .select()
        .from(messages)
        .where(
          and(
            eq(messages.enquiry_id, e.id),
            eq(messages.client_id, input.client_id),
            eq(messages.team_user_id, a.user_id),
          ),
        );
      if (earlier) return { repeat: toMessageDto(earlier, await teamUser(tx, a.user_id)) };
    }
    if (input.seen_message_id !== undefined && !input.send_anyway) {
      await refuseIfRepliedMeanwhile(tx, {
        enquiry_id: e.id,
        user_id: a.user_id,
        seen_message_id: input.seen_message_id,
      });
    }
    if (e.channel === 'email' && !input.meta.subject?.trim() && !e.title) {
      // An email thread needs a subject; fall back to the enquiry's, else ask for one.
      throw new AppError('unprocessable', 'Add a subject to send an email.');
    }
    const user_modified = await changedFromAssistant(tx, e.id, a.user_id, input);
    const out = await insertOutbound(ctx, tx, a, e, c, input, { ...extras, user_modified });
    // Replying to an unassigned enquiry makes it the replier's, when they want that (and are a teammate).
    if (!e.assigned_to && a.role) {
      const [me] = await tx
        .select({ assign_on_reply: users.assign_on_reply })
        .from(users)
        .where(eq(users.id, a.user_id));
      if (me?.assign_on_reply) {
        const [assigned] = await tx
          .update(enquiries)
          .set({ assigned_to: a.user_id })
          .where(eq(enquiries.id, e.id))
          .returning();
        const counts = await moveCounters(tx, e.location_id, e, { status: e.status, assigned_to: a.user_id });
        return { ...out, enquiry: toEnquiryRow(assigned!, c), counts };
      }
    }
    return { ...out, counts: null };
  });
  if ('repeat' in result && result.repeat) return result.repeat;
  afterOutbound(ctx, a.business_id, result);
  if (result.counts) await publishCounts(ctx, a.business_id, result.counts);
  return result.message;
}

/**
 * Whether a reply the assistant wrote (or rewrote) was changed by the person before sending: the draft keeps
 * the assistant's text. Null for replies the assistant had no part in.
 */
async function changedFromAssistant(
  tx: DbOrTx,
  enquiryId: string,
  userId: string,
  input: Pick<z.infer<typeof SendMessageRequest>, 'ai_interaction' | 'message'>,
): Promise<boolean | null> {
  if (!input.ai_interaction) return null;
  const [draft] = await tx
    .select({ ai_text: drafts.ai_text })
    .from(drafts)
    .where(and(eq(drafts.enquiry_id, enquiryId), eq(drafts.user_id, userId)));
  if (!draft?.ai_text) return null;
  return draft.ai_text.trim() !== input.message.trim();
}

type EnquiryRecord = typeof enquiries.$inferSelect;
type CustomerBrief = { name: string | null; phone: string | null; email: string | null };

async function insertOutbound(
  ctx: Parts,
  tx: DbOrTx,
  a: BusinessActor,
  e: EnquiryRecord,
  c: CustomerBrief,
  input: z.infer<typeof SendMessageRequest>,
  extras: OutboundExtras = {},
) {
  const [customer] = await tx
    .select({
      id: customers.id,
      phone: customers.phone,
      email: customers.email,
      sms_opted_out: customers.sms_opted_out,
    })
    .from(customers)
    .where(eq(customers.id, e.customer_id));
  await ctx.channels.checkSend({
    tx,
    business_id: a.business_id,
    location_id: e.location_id,
    enquiry_id: e.id,
    channel: e.channel,
    customer: customer!,
    message: input.message,
    attachments: input.attachments.length,
    template: extras.template,
  });
  await consumeDailyLimit(tx, a.business_id);
  const attachments = await resolveAttachments(ctx, tx, a, input.attachments);
  const isEmail = e.channel === 'email';
  // Forms are answered by email too (modules/forms/replies.ts): they take the enquiry's subject the same way.
  const byEmail = isEmail || FORM_CHANNELS.has(e.channel);
  const subject = input.meta.subject?.trim() || (byEmail ? (e.title ?? undefined) : undefined);
  const [m] = await tx
    .insert(messages)
    .values({
      business_id: a.business_id,
      enquiry_id: e.id,
      customer_id: e.customer_id,
      channel: e.channel,
      direction: 'out',
      team_user_id: a.user_id,
      message: input.message,
      meta: { ...(subject ? { subject } : {}), ...extras.meta },
      attachments,
      status: 'queued',
      client_id: input.client_id,
      ai_interaction: input.ai_interaction,
      ai_original: input.ai_original,
      user_modified: extras.user_modified ?? null,
      ...(isEmail ? { call_summary_status: 'not_started', call_transcription_status: 'not_started' } : {}),
    })
    .returning();
  await recordResponse(tx, e, new Date(m!.created_at), { user_id: a.user_id, assistant: false });
  const [updated] = await tx
    .update(enquiries)
    .set({
      last_message_at: m!.created_at,
      last_message_preview: preview(input.message, attachments.length),
      seen: true,
    })
    .where(eq(enquiries.id, e.id))
    .returning();
  await tx.delete(drafts).where(and(eq(drafts.enquiry_id, e.id), eq(drafts.user_id, a.user_id)));
  return {
    message: toMessageDto(m!, await teamUser(tx, a.user_id)),
    enquiry: toEnquiryRow(updated!, c),
  };
}

function afterOutbound(
  ctx: Parts,
  businessId: string,
  result: { message: MessageDto; enquiry: ReturnType<typeof toEnquiryRow> },
) {
  ctx.events.emit('message.created', {
    business_id: businessId,
    location_id: result.enquiry.location_id,
    message: result.message,
  });
  ctx.events.emit('enquiry.updated', { business_id: businessId, enquiry: result.enquiry });
  void enqueueSend(ctx.jobs, result.message.id);
}

/** One send job per message, for good: its id is the message's, so queuing it again adds nothing. */
export async function enqueueSend(jobs: Jobs, messageId: string): Promise<void> {
  await jobs.send(messageSend, { message_id: messageId }, { id: messageId });
}

/** Starts (or continues) a conversation with a contact: finds or creates the customer and the open enquiry. */
export async function startConversation(
  { actor, ...ctx }: MessagesCtx,
  input: z.infer<typeof NewConversationRequest>,
): Promise<{ enquiry_id: string; message: MessageDto }> {
  const a = requireBusiness(actor);
  const byEmail = input.channel === 'email';
  if (byEmail && (!input.email || !isValidEmail(input.email))) {
    throw new AppError(
      'unprocessable',
      input.email ? `${input.email} is not a valid email.` : 'Enter the email address to write to.',
    );
  }
  if (!byEmail && !input.phone) throw new AppError('unprocessable', 'Enter the phone number to message.');
  if (byEmail && !input.meta.subject?.trim())
    throw new AppError('unprocessable', 'Add a subject to send an email.');
  const phone = byEmail ? undefined : phoneOrRefuse(input.phone!);
  const email = byEmail ? input.email!.toLowerCase() : undefined;

  const result = await ctx.db.transaction(async (tx) => {
    const locationId = await resolveLocation(tx, a, input.location_id);
    const customer = await findOrCreateCustomer(tx, a.business_id, { phone, email, name: input.name });
    const { enquiry, created, counts } = await findOrOpenEnquiry(tx, {
      business_id: a.business_id,
      location_id: locationId,
      customer_id: customer.id,
      channel: input.channel,
      assigned_to: a.user_id,
      title: byEmail ? input.meta.subject : undefined,
    });
    const out = await insertOutbound(ctx, tx, a, enquiry, customer, input);
    return { ...out, created, counts };
  });
  if (result.created)
    ctx.events.emit('enquiry.created', { business_id: a.business_id, enquiry: result.enquiry });
  if (result.counts) await publishCounts(ctx, a.business_id, result.counts);
  afterOutbound(ctx, a.business_id, result);
  return { enquiry_id: result.enquiry.id, message: result.message };
}

/** A transaction lock on one conversation thread (texts and calls from a number share one): held until commit. */
export async function lockThread(
  tx: DbOrTx,
  thread: { location_id: string; customer_id: string; channel: string },
): Promise<void> {
  const key = `${thread.location_id}:${thread.customer_id}:${threadOf(thread.channel)}`;
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`);
}

/** The customer's open enquiry in this channel's thread at this location, or a new one (counted). */
export async function findOrOpenEnquiry(
  tx: DbOrTx,
  input: {
    business_id: string;
    location_id: string;
    customer_id: string;
    channel: string;
    assigned_to?: string | null;
    title?: string;
    source?: string;
    medium?: string;
    campaign?: string;
  },
) {
  // Concurrent first messages of one conversation queue here (one lock per thread, never per location), so
  // the second finds the enquiry the first opened instead of opening another.
  await lockThread(tx, input);
  const [open] = await tx
    .select()
    .from(enquiries)
    .where(
      and(
        eq(enquiries.customer_id, input.customer_id),
        continuesThreadOf(input.channel),
        eq(enquiries.location_id, input.location_id),
        eq(enquiries.status, 'open'),
      ),
    )
    .orderBy(desc(enquiries.last_message_at))
    .limit(1)
    .for('update');
  if (open) return { enquiry: open, created: false, counts: null };
  const [enquiry] = await tx
    .insert(enquiries)
    .values({
      business_id: input.business_id,
      location_id: input.location_id,
      customer_id: input.customer_id,
      channel: input.channel,
      assigned_to: input.assigned_to ?? null,
      title: input.title ?? null,
      source: input.source ?? null,
      medium: input.medium ?? null,
      campaign: input.campaign ?? null,
      status: 'open',
    })
    .returning();
  const counts = await moveCounters(tx, input.location_id, null, {
    assigned_to: enquiry!.assigned_to,
    status: 'open',
  });
  return { enquiry: enquiry!, created: true, counts };
}

export async function getDraft({ db, actor }: MessagesCtx, enquiryId: string) {
  const a = requireBusiness(actor);
  await loadEnquiry(db, a, enquiryId);
  const [d] = await db
    .select()
    .from(drafts)
    .where(and(eq(drafts.enquiry_id, enquiryId), eq(drafts.user_id, a.user_id)));
  return d ? draftDto(d) : null;
}

export async function saveDraft(
  { actor, ...ctx }: MessagesCtx,
  enquiryId: string,
  input: z.infer<typeof DraftRequest>,
) {
  const a = requireBusiness(actor);
  await loadEnquiry(ctx.db, a, enquiryId);
  const attachments = await resolveAttachments(ctx, ctx.db, a, input.attachments);
  const values = {
    enquiry_id: enquiryId,
    user_id: a.user_id,
    business_id: a.business_id,
    message: input.message,
    meta: input.meta,
    attachments,
    ai_interaction: input.ai_interaction ?? null,
    ai_original: input.ai_original ?? null,
  };
  const [d] = await ctx.db
    .insert(drafts)
    .values(values)
    .onConflictDoUpdate({
      target: [drafts.enquiry_id, drafts.user_id],
      // The assistant's text stays while the draft is still the assistant's (so a send can tell if it changed).
      set: {
        ...values,
        ai_text: values.ai_interaction ? sql`${drafts.ai_text}` : null,
        updated_at: new Date(),
      },
    })
    .returning();
  return draftDto(d!);
}

export async function deleteDraft({ db, actor }: MessagesCtx, enquiryId: string): Promise<void> {
  const a = requireBusiness(actor);
  await loadEnquiry(db, a, enquiryId);
  await db.delete(drafts).where(and(eq(drafts.enquiry_id, enquiryId), eq(drafts.user_id, a.user_id)));
}

function draftDto(d: typeof drafts.$inferSelect) {
  return {
    enquiry_id: d.enquiry_id,
    message: d.message,
    meta: d.meta,
    attachments: d.attachments,
    ai_interaction: d.ai_interaction,
    ai_original: d.ai_original,
    updated_at: d.updated_at,
  };
}
