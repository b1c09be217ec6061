import { aiFaqs, businesses, customers, enquiries, locations, messages } from '@switchboard/db';
import {
  type AiAutoReplyAction,
  AiAutoReplyOptions,
  type AiReplyMeta,
  ASSISTANT_AUTO,
  clipText,
  hoursOf,
  type MessageDto,
  openingState,
} from '@switchboard/shared';
import { and, desc, eq, isNotNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { type Context, depsOf } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { aiLearn } from '../../jobs/definitions/ai.ts';
import { requireBusiness, requireOwner } from '../../plugins/auth.ts';
import { featureOn } from '../admin/service.ts';
import { toEnquiryRow } from '../enquiries/dto.ts';
import { loadEnquiry } from '../enquiries/service.ts';
import { sendAutomatic } from '../messages/automatic.ts';
import { trailingCustomerLines } from './builtin.ts';
import { insertFaqs } from './faq-store.ts';
import { takeTurnInFlow } from './flows.ts';
import { nameWords } from './language.ts';
import { ModelUnavailableError } from './model.ts';
import { retrieve } from './retrieval.ts';
import { assistantFor, autoReplyAction, turnsOf, voiceFor } from './service.ts';
import { runnableTools } from './tools.ts';

/** Each location's auto-reply setting, read at most this often per node (a toggle here clears it at once). */
const SETTING_TTL_MS = 10_000;
const settings = new Map<string, { action: AiAutoReplyAction; delay: number; at: number }>();

async function locationSetting(app: FastifyInstance, locationId: string) {
  const cached = settings.get(locationId);
  if (cached && Date.now() - cached.at < SETTING_TTL_MS) return cached;
  const [row] = await app.db
    .select({ action: locations.ai_auto_reply, options: locations.ai_options })
    .from(locations)
    .where(eq(locations.id, locationId));
  const setting = {
    action: autoReplyAction(row?.action ?? 'off'),
    delay: AiAutoReplyOptions.parse(row?.options ?? {}).delay_seconds,
    at: Date.now(),
  };
  settings.set(locationId, setting);
  return setting;
}

/**
 * How long the assistant waits after a customer's line at a location, or null where it is off: what the
 * inbound pipeline asks when it writes a message's follow-ups (the answer's job goes to the outbox with the
 * message, so a server stopping right after the commit loses no answer).
 */
export async function autoReplyDelay(app: FastifyInstance, locationId: string): Promise<number | null> {
  const setting = await locationSetting(app, locationId);
  return setting.action === 'off' ? null : setting.delay;
}

/**
 * Listens for staff replies in conversations the assistant handed over, to learn from them. (Customers'
 * messages queue the assistant's answer through the inbound pipeline's outbox: see `autoReplyDelay`.)
 */
export function autoReplyListeners(app: FastifyInstance): void {
  app.events.on('message.created', ({ message }) => {
    void onMessage(app, message).catch((error: unknown) =>
      app.log.error({ err: error, message_id: message.id }, 'queuing the assistant failed'),
    );
  });
}

async function onMessage(app: FastifyInstance, message: MessageDto) {
  if (message.direction === 'in' || !message.team_user_id) return;
  const [e] = await app.db
    .select({ handed: enquiries.ai_handoff_at })
    .from(enquiries)
    .where(eq(enquiries.id, message.enquiry_id));
  if (e?.handed) {
    await app.jobs.send(
      aiLearn,
      { enquiry_id: message.enquiry_id, message_id: message.id },
      { singletonKey: message.enquiry_id },
    );
  }
}

/**
 * The assistant's turn in a conversation. `suggest`: its reply is kept on the enquiry for staff to use, never
 * sent. `auto`: sent as the business; a handoff also marks the enquiry for a person and tells the team. It
 * stays silent when the enquiry is closed or handed over, a newer line has come (that one's job answers), a
 * person has replied (when the location pauses then), the location is open (when it only answers out of
 * hours), it has said its most, or the channel refuses (opted out, outside WhatsApp's 24 hours).
 */
export async function autoReply(app: FastifyInstance, job: { message_id: string; enquiry_id?: string }) {
  const enquiryId = job.enquiry_id ?? (await enquiryOfMessage(app, job.message_id));
  if (!enquiryId) return;
  const [row] = await app.db
    .select({ e: enquiries, c: customers, l: locations, timezone: businesses.timezone })
    .from(enquiries)
    .innerJoin(customers, eq(customers.id, enquiries.customer_id))
    .innerJoin(locations, eq(locations.id, enquiries.location_id))
    .innerJoin(businesses, eq(businesses.id, enquiries.business_id))
    .where(eq(enquiries.id, enquiryId));
  if (!row) return;
  const { e, c, l } = row;
  const action = autoReplyAction(l.ai_auto_reply);
  if (action === 'off' || e.status !== 'open' || e.ai_handoff_at) return;
  // An administrator turned the assistant off for the business: its settings are hidden, so it stays silent.
  if (!(await featureOn(depsOf(app), e.business_id, 'assistant'))) return;
  const options = AiAutoReplyOptions.parse(l.ai_options ?? {});
  // The customer's newest line (an out-of-office reply after it does not silence the answer to it).
  const [latest] = await app.db
    .select({ id: messages.id })
    .from(messages)
    .where(
      and(
        eq(messages.enquiry_id, e.id),
        eq(messages.direction, 'in'),
        sql`not coalesce((${messages.meta}->>'auto_submitted')::boolean, false)`,
      ),
    )
    .orderBy(desc(messages.created_at), desc(messages.id))
    .limit(1);
  if (latest?.id !== job.message_id) return;
  if (
    options.outside_hours_only &&
    openingState(hoursOf(l).opening_hours, l.timezone ?? row.timezone, new Date(), hoursOf(l).holidays).open
  ) {
    return;
  }
  if (options.pause_on_human_reply) {
    const [person] = await app.db
      .select({ id: messages.id })
      .from(messages)
      .where(
        and(eq(messages.enquiry_id, e.id), eq(messages.direction, 'out'), isNotNull(messages.team_user_id)),
      )
      .limit(1);
    if (person) return;
  }

  if (action === 'auto' && e.ai_replies >= options.max_replies) {
    await handOver(app, e.id);
    return;
  }
  const voice = await voiceFor(app.db, e.business_id, e.location_id, c);
  const assistant = await assistantFor(app.db, app.config, e.business_id);
  const turns = await turnsOf(app.db, e.id);
  // A flow the customer is in (or starts with their words) goes first; else the assistant answers.
  const flow = await takeTurnInFlow(
    { db: app.db, config: app.config },
    {
      enquiry_id: e.id,
      business_id: e.business_id,
      location_id: e.location_id,
      customer_id: e.customer_id,
      text: trailingCustomerLines({ turns }).join('\n'),
      voice,
      location_action: action,
      provider: assistant.kind,
    },
  );
  if (flow && (flow.mode === 'off' || !flow.reply.message)) return;
  const mode = flow ? flow.mode : action;
  let reply: AiReplyMeta;
  try {
    reply =
      flow?.reply ??
      (await assistant.reply(app.db, {
        ...voice,
        turns,
        greet: e.ai_replies === 0,
        tools: assistant.kind === 'model' ? await runnableTools(app.db, app.config, e.business_id) : [],
      }));
  } catch (error) {
    // The AI model did not answer: a person takes it (and is told), rather than the customer waiting on retries.
    if (!(error instanceof ModelUnavailableError)) throw error;
    app.log.warn(
      { err: error, enquiry_id: e.id },
      'the AI model did not answer; the enquiry goes to a person',
    );
    if (mode === 'auto') await handOver(app, e.id);
    return;
  }

  if (mode === 'suggest') {
    const [updated] = await app.db
      .update(enquiries)
      .set({
        meta: sql`${enquiries.meta} || ${JSON.stringify({ ai_suggestion: { ...reply, reply_to: job.message_id } })}::jsonb`,
      })
      .where(eq(enquiries.id, e.id))
      .returning();
    if (updated)
      app.events.emit('enquiry.updated', { business_id: e.business_id, enquiry: toEnquiryRow(updated, c) });
    return;
  }
  await sendAsBusiness(app, { enquiry_id: e.id, reply_to: job.message_id, reply });
}

async function enquiryOfMessage(app: FastifyInstance, messageId: string): Promise<string | null> {
  const [m] = await app.db
    .select({ enquiry_id: messages.enquiry_id })
    .from(messages)
    .where(eq(messages.id, messageId));
  return m?.enquiry_id ?? null;
}

/** Sends the assistant's reply in the conversation as the business (idempotent per customer message). */
async function sendAsBusiness(
  app: FastifyInstance,
  input: { enquiry_id: string; reply_to: string; reply: AiReplyMeta },
) {
  const { reply } = input;
  const handoff = reply.action === 'handoff';
  const outcome = await sendAutomatic(app, {
    enquiry_id: input.enquiry_id,
    message: reply.message,
    client_id: `ai:${input.reply_to}`,
    meta: { auto: ASSISTANT_AUTO, ai: reply },
    ai_interaction: 'ai_generated',
    when: (e) => e.status === 'open' && !e.ai_handoff_at,
    enquiry_set: {
      ai_replies: sql`${enquiries.ai_replies} + 1`,
      ...(handoff ? { ai_handoff_at: new Date() } : {}),
    },
  });
  if (!outcome.sent) {
    app.log.info({ enquiry_id: input.enquiry_id, reason: outcome.reason }, 'the assistant did not reply');
    return;
  }
  if (handoff)
    app.events.emit('enquiry.handed_off', {
      business_id: outcome.enquiry.business_id,
      enquiry: toEnquiryRow(outcome.enquiry, outcome.customer),
    });
}

/** Marks an enquiry for a person without a word to the customer (the assistant has said its most). */
async function handOver(app: FastifyInstance, enquiryId: string) {
  const [updated] = await app.db
    .update(enquiries)
    .set({ ai_handoff_at: new Date() })
    .where(and(eq(enquiries.id, enquiryId), sql`${enquiries.ai_handoff_at} is null`))
    .returning();
  if (!updated) return;
  const [c] = await app.db.select().from(customers).where(eq(customers.id, updated.customer_id));
  const enquiry = toEnquiryRow(updated, c!);
  app.events.emit('enquiry.updated', { business_id: updated.business_id, enquiry });
  app.events.emit('enquiry.handed_off', { business_id: updated.business_id, enquiry });
}

/**
 * `PUT /enquiries/{id}/needs-person`: staff hand a conversation back to the assistant (false), or take it from
 * it (true). While true the assistant stays silent there.
 */
export async function setNeedsPerson(
  { db, actor, events }: Pick<Context, 'db' | 'actor' | 'events'>,
  id: string,
  needs: boolean,
) {
  const a = requireBusiness(actor);
  const { e, c } = await loadEnquiry(db, a, id);
  const [updated] = await db
    .update(enquiries)
    .set(needs ? { ai_handoff_at: e.ai_handoff_at ?? new Date() } : { ai_handoff_at: null, ai_replies: 0 })
    .where(eq(enquiries.id, e.id))
    .returning();
  const row = toEnquiryRow(updated!, c);
  events.emit('enquiry.updated', { business_id: a.business_id, enquiry: row });
  return row;
}

/** `PUT /business/ai-auto-reply/toggle/{action}`: the assistant off, suggesting, or answering at a location. */
export async function toggleAutoReply(
  { db, actor }: Pick<Context, 'db' | 'actor'>,
  action: AiAutoReplyAction,
  input: { location_id: string; options?: Partial<AiAutoReplyOptions> | undefined },
) {
  const { business_id } = requireOwner(actor, 'change how the assistant answers');
  const [current] = await db
    .select({ options: locations.ai_options })
    .from(locations)
    .where(and(eq(locations.id, input.location_id), eq(locations.business_id, business_id)));
  if (!current) throw new AppError('not_found', 'Location not found.');
  const options = AiAutoReplyOptions.parse({ ...(current.options ?? {}), ...(input.options ?? {}) });
  const [row] = await db
    .update(locations)
    .set({ ai_auto_reply: action, ai_options: options })
    .where(eq(locations.id, input.location_id))
    .returning({ id: locations.id, name: locations.name });
  settings.delete(input.location_id);
  return { location_id: row!.id, name: row!.name, action, options };
}

/**
 * Learning from a handover: staff answered what the assistant could not. What the customer asked and what
 * staff said become a proposed FAQ, or, when an FAQ nearly answered it, a proposed further phrasing of that
 * FAQ. The owner accepts or dismisses it; one proposal per conversation.
 */
export async function learnFromHandoff(
  app: FastifyInstance,
  job: { enquiry_id: string; message_id: string },
) {
  const [e] = await app.db.select().from(enquiries).where(eq(enquiries.id, job.enquiry_id));
  if (!e?.ai_handoff_at) return;
  const [exists] = await app.db
    .select({ id: aiFaqs.id })
    .from(aiFaqs)
    .where(and(eq(aiFaqs.source_enquiry_id, e.id), eq(aiFaqs.status, 'proposed')));
  if (exists) return;
  const rows = await app.db
    .select({
      id: messages.id,
      direction: messages.direction,
      text: messages.message,
      team: messages.team_user_id,
    })
    .from(messages)
    .where(eq(messages.enquiry_id, e.id))
    .orderBy(messages.created_at, messages.id);
  const at = rows.findIndex((r) => r.id === job.message_id);
  const staff = rows[at];
  if (!staff?.text.trim()) return;
  const asked: string[] = [];
  for (let i = at - 1; i >= 0; i--) {
    const r = rows[i]!;
    if (r.direction === 'in') {
      if (r.text.trim()) asked.unshift(r.text.trim());
    } else if (r.team || asked.length) break;
  }
  const question = clipText(asked.join(' '), 500).trim();
  if (!question) return;
  const [business] = await app.db
    .select({ name: businesses.name })
    .from(businesses)
    .where(eq(businesses.id, e.business_id));
  const found = await retrieve(app.db, {
    business_id: e.business_id,
    location_id: e.location_id,
    text: question,
    ignore: nameWords(business?.name),
  });
  const near = found.hits.find((h) => h.kind === 'faq' && h.coverage >= 0.4);
  await insertFaqs(app.db, e.business_id, [
    near
      ? {
          question,
          answer: near.body,
          status: 'proposed',
          origin: 'handoff',
          source_enquiry_id: e.id,
          target_faq_id: near.id,
        }
      : {
          question,
          answer: clipText(staff.text.trim(), 4000),
          status: 'proposed',
          origin: 'handoff',
          source_enquiry_id: e.id,
          location_ids: [e.location_id],
        },
  ]);
}
