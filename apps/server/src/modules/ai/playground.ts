import { aiEnquiries, aiMessages, aiRatings, type DbOrTx, enquiries, messages, users } from '@switchboard/db';
import { type AiReplyMeta, isUuid } from '@switchboard/shared';
import { and, asc, count, desc, eq } from 'drizzle-orm';
import type { Context, DbActor } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { type BusinessActor, requireBusiness, requireOwner, worksAt } from '../../plugins/auth.ts';
import type { Turn } from './assistant.ts';
import { assistOrExplain } from './model.ts';
import { assistantFor, voiceFor } from './service.ts';

const conversationNotFound = () => new AppError('not_found', 'Conversation not found.');

type PlayEnquiry = typeof aiEnquiries.$inferSelect;
type PlayMessage = typeof aiMessages.$inferSelect;

const enquiryDto = (e: PlayEnquiry, title = e.title) => ({
  id: e.id,
  title,
  location_id: e.location_id,
  updated_at: e.updated_at,
});
const messageDto = (m: PlayMessage) => ({
  id: m.id,
  role: m.role,
  message: m.message,
  ai: (m.ai as AiReplyMeta | null) ?? null,
  created_at: m.created_at,
});

/**
 * `GET /business/ai/enquiries`: the owner's test conversations, last used first. A title with the digit 1 in it
 * ("Conversation 1") shows the conversation's place in the list instead (spec §7).
 */
export async function listPlayConversations({ db, actor }: DbActor) {
  const a = requireBusiness(actor);
  const rows = await db
    .select()
    .from(aiEnquiries)
    .where(and(eq(aiEnquiries.business_id, a.business_id), eq(aiEnquiries.user_id, a.user_id)))
    .orderBy(desc(aiEnquiries.updated_at), desc(aiEnquiries.id))
    .limit(100);
  return { items: rows.map((e, i) => enquiryDto(e, e.title.replace('1', String(i + 1)))) };
}

async function loadConversation(db: DbOrTx, a: { business_id: string; user_id: string }, id: string) {
  if (!isUuid(id)) throw conversationNotFound();
  const [e] = await db
    .select()
    .from(aiEnquiries)
    .where(
      and(
        eq(aiEnquiries.id, id),
        eq(aiEnquiries.business_id, a.business_id),
        eq(aiEnquiries.user_id, a.user_id),
      ),
    );
  if (!e) throw conversationNotFound();
  return e;
}

/** `GET /business/ai/enquiries/{id}/messages`: newest first, 10 a page. */
export async function playMessages(
  { db, actor }: DbActor,
  id: string,
  page: { page: number; page_size: number },
) {
  const a = requireBusiness(actor);
  const e = await loadConversation(db, a, id);
  const where = eq(aiMessages.ai_enquiry_id, e.id);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(aiMessages)
      .where(where)
      .orderBy(desc(aiMessages.created_at), desc(aiMessages.id))
      .limit(page.page_size)
      .offset((page.page - 1) * page.page_size),
    db.select({ n: count() }).from(aiMessages).where(where),
  ]);
  return { items: rows.map(messageDto), page: page.page, page_size: page.page_size, total: total?.n ?? 0 };
}

/**
 * `POST /business/ai/messages` (new conversation) and `POST /business/ai/messages/{id}`: the owner writes as a
 * customer and the assistant answers as it would in the inbox (the same provider, knowledge and handoff),
 * with nothing sent to anyone.
 */
export async function playMessage(
  ctx: Pick<Context, 'db' | 'actor' | 'config'>,
  id: string | null,
  input: { message: string; location_id?: string | null | undefined },
) {
  const a = requireOwner(ctx.actor, 'try the assistant');
  const { db } = ctx;
  let e = id ? await loadConversation(db, a, id) : null;
  const locationId = input.location_id ?? e?.location_id ?? a.location_id ?? null;
  const voice = await voiceFor(db, a.business_id, locationId, { first_name: null, name: null });
  if (!e) {
    const [made] = await db
      .insert(aiEnquiries)
      .values({
        business_id: a.business_id,
        user_id: a.user_id,
        location_id: locationId,
        title: 'Conversation 1',
      })
      .returning();
    e = made!;
  }
  const history = await db
    .select()
    .from(aiMessages)
    .where(eq(aiMessages.ai_enquiry_id, e.id))
    .orderBy(asc(aiMessages.created_at), asc(aiMessages.id));
  const turns: Turn[] = [
    ...history.slice(-19).map((m) => ({
      role: m.role === 'customer' ? ('customer' as const) : ('business' as const),
      text: m.message,
    })),
    { role: 'customer', text: input.message },
  ];
  const assistant = await assistantFor(db, ctx.config, a.business_id);
  const reply = await assistOrExplain(() =>
    assistant.reply(db, { ...voice, turns, greet: !history.some((m) => m.role === 'assistant') }),
  );
  const conversation = e;
  const [asked, answered] = await db.transaction(async (tx) => {
    const [q] = await tx
      .insert(aiMessages)
      .values({
        ai_enquiry_id: conversation.id,
        business_id: a.business_id,
        role: 'customer',
        message: input.message,
      })
      .returning();
    const [r] = await tx
      .insert(aiMessages)
      .values({
        ai_enquiry_id: conversation.id,
        business_id: a.business_id,
        role: 'assistant',
        message: reply.message,
        ai: reply,
      })
      .returning();
    await tx.update(aiEnquiries).set({ updated_at: new Date() }).where(eq(aiEnquiries.id, conversation.id));
    return [q!, r!];
  });
  return {
    message: reply.message,
    enquiry: enquiryDto(conversation),
    customer_message: messageDto(asked),
    reply: messageDto(answered),
  };
}

/**
 * A rating is about something the assistant said that the person may read: a message of an enquiry at a location
 * they work at (the enquiry and location named with it too), or a reply in one of the business's playground
 * conversations. Another location's, another business's or no message at all is not found.
 */
async function assertTheirsToRate(
  db: DbOrTx,
  a: BusinessActor,
  messageId: string,
  input: { enquiry_id?: string | null | undefined; location_id?: string | null | undefined },
) {
  const missing = () => new AppError('not_found', 'Message not found.');
  if (input.location_id && !worksAt(a, input.location_id)) throw missing();
  const [inbox] = await db
    .select({ enquiry_id: enquiries.id, location_id: enquiries.location_id })
    .from(messages)
    .innerJoin(enquiries, eq(enquiries.id, messages.enquiry_id))
    .where(and(eq(messages.id, messageId), eq(messages.business_id, a.business_id)));
  if (inbox) {
    if (!worksAt(a, inbox.location_id)) throw missing();
    if (input.enquiry_id && input.enquiry_id !== inbox.enquiry_id) throw missing();
    return;
  }
  const [played] = await db
    .select({ id: aiMessages.id })
    .from(aiMessages)
    .innerJoin(aiEnquiries, eq(aiEnquiries.id, aiMessages.ai_enquiry_id))
    .where(and(eq(aiMessages.id, messageId), eq(aiEnquiries.business_id, a.business_id)));
  if (!played || input.enquiry_id) throw missing();
}

/** `POST /business/ai/messages/{id}/rating`: thumbs up or down (with why) on an assistant message; one per person. */
export async function rateMessage(
  { db, actor }: DbActor,
  messageId: string,
  input: {
    rating: 'up' | 'down';
    feedback?: string | undefined;
    enquiry_id?: string | null | undefined;
    message?: string | undefined;
    response?: string | undefined;
    location_id?: string | null | undefined;
  },
) {
  const a = requireBusiness(actor);
  if (!isUuid(messageId)) throw new AppError('not_found', 'Message not found.');
  await assertTheirsToRate(db, a, messageId, input);
  const values = {
    business_id: a.business_id,
    message_id: messageId,
    enquiry_id: input.enquiry_id ?? null,
    location_id: input.location_id ?? null,
    user_id: a.user_id,
    rating: input.rating,
    feedback: input.feedback ?? '',
    message: input.message ?? '',
    response: input.response ?? '',
  };
  const [row] = await db
    .insert(aiRatings)
    .values(values)
    .onConflictDoUpdate({
      target: [aiRatings.message_id, aiRatings.user_id],
      set: { ...values, updated_at: new Date() },
    })
    .returning();
  const [me] = await db.select({ full_name: users.full_name }).from(users).where(eq(users.id, a.user_id));
  return ratingDto(row!, me?.full_name ?? null);
}

const ratingDto = (r: typeof aiRatings.$inferSelect, user_name: string | null) => ({
  id: r.id,
  message_id: r.message_id,
  enquiry_id: r.enquiry_id,
  location_id: r.location_id,
  rating: r.rating,
  feedback: r.feedback,
  message: r.message,
  response: r.response,
  user_name,
  created_at: r.created_at,
});

/** `GET /business/ai/ratings`: what people thought of the assistant's answers, newest first. */
export async function listRatings({ db, actor }: DbActor, page: { page: number; page_size: number }) {
  const { business_id } = requireOwner(actor, "see the assistant's ratings");
  const where = eq(aiRatings.business_id, business_id);
  const [rows, [total]] = await Promise.all([
    db
      .select({ r: aiRatings, name: users.full_name })
      .from(aiRatings)
      .leftJoin(users, eq(users.id, aiRatings.user_id))
      .where(where)
      .orderBy(desc(aiRatings.created_at), desc(aiRatings.id))
      .limit(page.page_size)
      .offset((page.page - 1) * page.page_size),
    db.select({ n: count() }).from(aiRatings).where(where),
  ]);
  return {
    items: rows.map((x) => ratingDto(x.r, x.name)),
    page: page.page,
    page_size: page.page_size,
    total: total?.n ?? 0,
  };
}
