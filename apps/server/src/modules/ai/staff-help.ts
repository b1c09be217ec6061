import { drafts, users } from '@switchboard/db';
import type { AiDraftAnswer } from '@switchboard/shared';
import { eq } from 'drizzle-orm';
import type { Context } from '../../context.ts';
import { requireBusiness } from '../../plugins/auth.ts';
import type { Turn } from './assistant.ts';
import { assistOrExplain } from './model.ts';
import { assistantFor, enquiryVoice, turnsOf } from './service.ts';

type HelpCtx = Pick<Context, 'db' | 'actor' | 'config'>;

async function keepDraft(
  ctx: HelpCtx,
  enquiryId: string,
  draft: { message: string; ai_interaction: 'ai_generated' | 'ai_rewritten'; ai_original: string | null },
) {
  const a = requireBusiness(ctx.actor);
  const values = {
    enquiry_id: enquiryId,
    user_id: a.user_id,
    business_id: a.business_id,
    message: draft.message,
    ai_interaction: draft.ai_interaction,
    ai_original: draft.ai_original,
    ai_text: draft.message,
  };
  await ctx.db
    .insert(drafts)
    .values(values)
    .onConflictDoUpdate({
      target: [drafts.enquiry_id, drafts.user_id],
      set: { ...values, updated_at: new Date() },
    });
}

/**
 * `POST /business/ai/response`: the assistant's reply to the customer's last message, kept as the user's draft
 * (`ai_generated`) and never sent. No customer message to reply to: nothing is kept and the message is ''
 * (spec §5). Not sure: nothing is kept either, and `ai.action` says it would hand over.
 */
export async function suggestReply(
  ctx: HelpCtx,
  input: { enquiry_id: string; message?: string | undefined },
) {
  const a = requireBusiness(ctx.actor);
  const { voice } = await enquiryVoice(ctx.db, a, input.enquiry_id);
  const turns = untilLastCustomerLine(await turnsOf(ctx.db, input.enquiry_id));
  const asked = input.message?.trim();
  if (asked && turns.at(-1)?.text !== asked) turns.push({ role: 'customer', text: asked });
  const empty: AiDraftAnswer = { message: '', ai_interaction: null, ai_original: null, ai: null };
  if (!turns.some((t) => t.role === 'customer')) return empty;
  const assistant = await assistantFor(ctx.db, ctx.config, a.business_id);
  const greet = !turns.some((t) => t.role === 'business');
  const reply = await assistOrExplain(() => assistant.reply(ctx.db, { ...voice, turns, greet }));
  if (reply.action === 'handoff') return { ...empty, ai: reply };
  await keepDraft(ctx, input.enquiry_id, {
    message: reply.message,
    ai_interaction: 'ai_generated',
    ai_original: null,
  });
  return { message: reply.message, ai_interaction: 'ai_generated' as const, ai_original: null, ai: reply };
}

/** The conversation up to the customer's last line (staff may have written since; the reply is to the customer). */
function untilLastCustomerLine(turns: Turn[]): Turn[] {
  const last = turns.findLastIndex((t) => t.role === 'customer');
  return turns.slice(0, last + 1);
}

/** `POST /business/ai/rewrite-message`: the user's text made ready to send, kept as their draft (`ai_rewritten`). */
export async function rewriteMessage(ctx: HelpCtx, input: { enquiry_id: string; message: string }) {
  const a = requireBusiness(ctx.actor);
  const { voice } = await enquiryVoice(ctx.db, a, input.enquiry_id);
  const [me] = await ctx.db.select({ full_name: users.full_name }).from(users).where(eq(users.id, a.user_id));
  const assistant = await assistantFor(ctx.db, ctx.config, a.business_id);
  const sender = me?.full_name.trim().split(/\s+/)[0] ?? null;
  const text = await assistOrExplain(() =>
    assistant.rewrite({
      text: input.message,
      first_name: voice.first_name,
      business_name: voice.business_name,
      tone: voice.tone,
      sender,
    }),
  );
  const message = text || input.message;
  await keepDraft(ctx, input.enquiry_id, {
    message,
    ai_interaction: 'ai_rewritten',
    ai_original: input.message,
  });
  const answer: AiDraftAnswer = {
    message,
    ai_interaction: 'ai_rewritten',
    ai_original: input.message,
    ai: null,
  };
  return answer;
}
