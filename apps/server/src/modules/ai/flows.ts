import { aiFlowRuns, aiFlows, aiProfiles, aiTools, customers, type DbOrTx } from '@switchboard/db';
import {
  type AiAutoReplyAction,
  type AiFlowInput,
  type AiFlowStep,
  type AiReplyMeta,
  clipText,
  isUuid,
  isValidEmail,
  normalisePhone,
  AiFlowStep as StepSchema,
} from '@switchboard/shared';
import { and, asc, eq } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Context } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { requireBusiness, requireOwner } from '../../plugins/auth.ts';
import type { Voice } from './assistant.ts';
import { runnableTools } from './tools.ts';

type FlowRow = typeof aiFlows.$inferSelect;
type FlowCtx = Pick<Context, 'db' | 'actor'>;

const flowNotFound = () => new AppError('not_found', 'Flow not found.');
const AWAITING = '_awaiting';
const RANK: Record<AiAutoReplyAction, number> = { off: 0, suggest: 1, auto: 2 };

const stepsOf = (row: FlowRow): AiFlowStep[] =>
  row.steps
    .map((s) => StepSchema.safeParse(s))
    .flatMap((r) => (r.success ? [r.data] : []))
    .sort((a, b) => a.position - b.position);

function toDto(row: FlowRow) {
  return {
    id: row.id,
    name: row.name,
    keywords: row.keywords,
    intent: row.intent,
    action: row.action,
    steps: stepsOf(row),
    location_ids: row.location_ids?.length ? row.location_ids : null,
    updated_at: row.updated_at,
  };
}

/** Each step has what its kind needs; positions are made 0…n-1 in the order given. */
function checkSteps(steps: AiFlowStep[], toolIds: Set<string>): AiFlowStep[] {
  return [...steps]
    .sort((a, b) => a.position - b.position)
    .map((step, position) => {
      const n = position + 1;
      if ((step.kind === 'ask' || step.kind === 'message') && !step.text?.trim()) {
        throw new AppError('unprocessable', `Step ${n} (${step.kind}) needs the text to send.`);
      }
      if (step.kind === 'collect' && (!step.field || !step.from)) {
        throw new AppError(
          'unprocessable',
          `Step ${n} (collect) needs the customer field and the answer to put in it.`,
        );
      }
      if (step.kind === 'tool' && (!step.tool_id || !toolIds.has(step.tool_id))) {
        throw new AppError(
          'unprocessable',
          `Step ${n} calls a tool that does not exist. Choose one of your tools.`,
        );
      }
      return { ...step, position };
    });
}

/** The ids of the business's tools (a step may only call one of them). */
async function toolIdsOf(db: DbOrTx, businessId: string) {
  const rows = await db.select({ id: aiTools.id }).from(aiTools).where(eq(aiTools.business_id, businessId));
  return new Set(rows.map((r) => r.id));
}

export async function listFlows({ db, actor }: FlowCtx) {
  const { business_id } = requireBusiness(actor);
  const rows = await db
    .select()
    .from(aiFlows)
    .where(eq(aiFlows.business_id, business_id))
    .orderBy(asc(aiFlows.created_at));
  return rows.map(toDto);
}

export async function createFlow(ctx: FlowCtx, input: AiFlowInput) {
  const { business_id } = requireOwner(ctx.actor, "change the assistant's flows");
  const steps = checkSteps((input.steps ?? []) as AiFlowStep[], await toolIdsOf(ctx.db, business_id));
  const [row] = await ctx.db
    .insert(aiFlows)
    .values({
      business_id,
      name: input.name,
      keywords: input.keywords ?? [],
      intent: input.intent ?? '',
      action: input.action ?? 'off',
      steps,
      location_ids: input.location_ids?.length ? input.location_ids : null,
    })
    .returning();
  return toDto(row!);
}

export async function updateFlow(
  ctx: FlowCtx & Pick<Context, 'config'>,
  id: string,
  patch: Partial<AiFlowInput>,
) {
  const { business_id } = requireOwner(ctx.actor, "change the assistant's flows");
  if (!isUuid(id)) throw flowNotFound();
  const steps =
    patch.steps === undefined
      ? undefined
      : checkSteps(patch.steps as AiFlowStep[], await toolIdsOf(ctx.db, business_id));
  const [row] = await ctx.db
    .update(aiFlows)
    .set({
      ...(patch.name !== undefined ? { name: patch.name } : {}),
      ...(patch.keywords !== undefined ? { keywords: patch.keywords } : {}),
      ...(patch.intent !== undefined ? { intent: patch.intent } : {}),
      ...(patch.action !== undefined ? { action: patch.action } : {}),
      ...(steps ? { steps } : {}),
      ...(patch.location_ids !== undefined
        ? { location_ids: patch.location_ids?.length ? patch.location_ids : null }
        : {}),
    })
    .where(and(eq(aiFlows.id, id), eq(aiFlows.business_id, business_id)))
    .returning();
  if (!row) throw flowNotFound();
  return toDto(row);
}

export async function deleteFlow({ db, actor }: FlowCtx, id: string) {
  const { business_id } = requireOwner(actor, "change the assistant's flows");
  if (!isUuid(id)) throw flowNotFound();
  const gone = await db
    .delete(aiFlows)
    .where(and(eq(aiFlows.id, id), eq(aiFlows.business_id, business_id)))
    .returning();
  if (!gone.length) throw flowNotFound();
}

/**
 * `POST /business/ai/flows/auto-generate`: the flows most businesses want, made from what the owner told the
 * assistant (off until the owner turns them on): booking a time, and asking for a call back. One of a name
 * already there is not made again.
 */
export async function generateFlows({ db, actor }: FlowCtx) {
  const { business_id } = requireOwner(actor, "change the assistant's flows");
  const [profile] = await db.select().from(aiProfiles).where(eq(aiProfiles.business_id, business_id));
  const existing = new Set(
    (await db.select({ name: aiFlows.name }).from(aiFlows).where(eq(aiFlows.business_id, business_id))).map(
      (f) => f.name,
    ),
  );
  const what = profile?.services ? 'an appointment' : 'a time with us';
  const made = [
    {
      name: 'Book an appointment',
      keywords: ['book', 'booking', 'appointment', 'reschedule'],
      intent: 'The customer wants to book or move an appointment.',
      steps: [
        {
          position: 0,
          kind: 'ask' as const,
          text: `Happy to help you book ${what}. What is your full name?`,
          save_as: 'full_name',
        },
        { position: 1, kind: 'collect' as const, field: 'name' as const, from: 'full_name' },
        {
          position: 2,
          kind: 'ask' as const,
          text: 'Thanks! Which day and time suit you best?',
          save_as: 'preferred_time',
        },
        {
          position: 3,
          kind: 'handoff' as const,
          text: 'Got it: {preferred_time}. Our team will confirm your booking shortly.',
        },
      ],
    },
    {
      name: 'Call me back',
      keywords: ['call me', 'call back', 'callback', 'ring me', 'phone me'],
      intent: 'The customer wants someone to phone them.',
      steps: [
        {
          position: 0,
          kind: 'ask' as const,
          text: 'Sure. What is the best number to reach you on?',
          save_as: 'callback_number',
        },
        { position: 1, kind: 'collect' as const, field: 'phone' as const, from: 'callback_number' },
        { position: 2, kind: 'handoff' as const, text: 'Thanks, someone from our team will call you soon.' },
      ],
    },
  ].filter((f) => !existing.has(f.name));
  if (!made.length) return [];
  try {
    const rows = await db
      .insert(aiFlows)
      .values(made.map((f) => ({ ...f, business_id, action: 'off' as const })))
      .returning();
    return rows.map(toDto);
  } catch (error) {
    if (isUniqueViolation(error)) return [];
    throw error;
  }
}

/** Texts with {first_name}, {business_name}, {location_name} and kept values ({answer}, {booking.slot}). */
function render(text: string, voice: Voice, values: Record<string, string>): string {
  return text
    .replace(
      /\{([a-z][a-z0-9_]*)(?:\.([a-z0-9_.]+))?\}/gi,
      (whole, key: string, path: string | undefined) => {
        if (key === 'first_name') return voice.first_name ?? '';
        if (key === 'business_name') return voice.business_name;
        if (key === 'location_name') return voice.location_name ?? '';
        const value = values[key];
        if (value === undefined) return whole;
        if (!path) return value;
        try {
          let v: unknown = JSON.parse(value);
          for (const part of path.split('.')) v = (v as Record<string, unknown> | null)?.[part];
          return v === undefined || v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
        } catch {
          return '';
        }
      },
    )
    .replace(/ +,/g, ',')
    .replace(/\s{2,}/g, ' ')
    .trim();
}

const matches = (flow: FlowRow, text: string) => {
  const lower = ` ${text.toLowerCase().replace(/[^\p{L}\p{N}']+/gu, ' ')} `;
  return flow.keywords.some((k) => {
    const key = k
      .toLowerCase()
      .replace(/[^\p{L}\p{N}']+/gu, ' ')
      .trim();
    return key.length > 0 && lower.includes(` ${key} `);
  });
};

/** Puts a value the customer gave into their record, when it is one (a real email, a phone number). */
async function collect(db: DbOrTx, customerId: string, field: AiFlowStep['field'], value: string) {
  const v = clipText(value.trim(), 200);
  if (!v || !field) return;
  if (field === 'email' && !isValidEmail(v)) return;
  if (field === 'phone') {
    const phone = normalisePhone(v);
    if (phone)
      await db
        .update(customers)
        .set({ phone })
        .where(eq(customers.id, customerId))
        .catch(() => {});
    return;
  }
  if (field === 'name') {
    await db
      .update(customers)
      .set({ name: v, first_name: v.split(/\s+/)[0] ?? v })
      .where(eq(customers.id, customerId));
    return;
  }
  await db
    .update(customers)
    .set({ [field]: v })
    .where(eq(customers.id, customerId));
}

export type FlowOutcome = { reply: AiReplyMeta; mode: AiAutoReplyAction };

/**
 * The enquiry's flow takes the customer's message: a running one keeps the message as the answer it waited
 * for and goes on; else a flow whose keywords the message says starts. Steps run in order until one waits for
 * the customer (`ask`), hands over, or the flow ends. Null when no flow applies (the assistant answers as usual).
 * `mode` is the lesser of the location's auto-reply and the flow's own action.
 */
export async function takeTurnInFlow(
  deps: { db: DbOrTx; config: Pick<Config, 'encryptionKey' | 'ai'> },
  input: {
    enquiry_id: string;
    business_id: string;
    location_id: string;
    customer_id: string;
    text: string;
    voice: Voice;
    location_action: AiAutoReplyAction;
    provider: 'builtin' | 'model';
  },
): Promise<FlowOutcome | null> {
  const { db } = deps;
  const [run] = await db.select().from(aiFlowRuns).where(eq(aiFlowRuns.enquiry_id, input.enquiry_id));
  let flow: FlowRow | undefined;
  let step = 0;
  const values: Record<string, string> = {};
  if (run) {
    [flow] = await db.select().from(aiFlows).where(eq(aiFlows.id, run.flow_id));
    if (!flow || flow.action === 'off') {
      await db.delete(aiFlowRuns).where(eq(aiFlowRuns.enquiry_id, input.enquiry_id));
      flow = undefined;
    } else {
      step = run.step;
      Object.assign(values, run.values);
      const awaiting = values[AWAITING];
      if (awaiting) values[awaiting] = clipText(input.text.trim(), 1000);
      delete values[AWAITING];
    }
  }
  if (!flow) {
    const flows = await db
      .select()
      .from(aiFlows)
      .where(eq(aiFlows.business_id, input.business_id))
      .orderBy(asc(aiFlows.created_at));
    flow = flows.find(
      (f) =>
        f.action !== 'off' &&
        (!f.location_ids?.length || f.location_ids.includes(input.location_id)) &&
        matches(f, input.text),
    );
    if (!flow) return null;
  }
  const mode = RANK[flow.action] < RANK[input.location_action] ? flow.action : input.location_action;
  const steps = stepsOf(flow);
  const tools = steps.some((s) => s.kind === 'tool')
    ? await runnableTools(db, deps.config, input.business_id)
    : [];
  const texts: string[] = [];
  let action: AiReplyMeta['action'] = 'answer';
  let i = step;
  for (; i < steps.length; i++) {
    const s = steps[i]!;
    if (s.kind === 'ask') {
      texts.push(render(s.text ?? '', input.voice, values));
      values[AWAITING] = s.save_as ?? `answer_${i}`;
      action = 'ask';
      i++;
      break;
    }
    if (s.kind === 'collect') {
      await collect(db, input.customer_id, s.field, values[s.from ?? ''] ?? '');
    } else if (s.kind === 'tool') {
      const tool = tools.find((t) => t.id === s.tool_id);
      const args = Object.fromEntries(
        Object.entries(s.arguments ?? {}).map(([k, v]) => [k, render(v, input.voice, values)]),
      );
      values[s.save_as ?? 'tool_result'] = tool ? await tool.run(args) : 'The tool is no longer there.';
    } else if (s.kind === 'message') {
      texts.push(render(s.text ?? '', input.voice, values));
    } else {
      texts.push(s.text?.trim() ? render(s.text, input.voice, values) : input.voice.handoff_message);
      action = 'handoff';
      i = steps.length;
      break;
    }
  }
  if (i >= steps.length && action !== 'ask') {
    await db.delete(aiFlowRuns).where(eq(aiFlowRuns.enquiry_id, input.enquiry_id));
  } else {
    await db
      .insert(aiFlowRuns)
      .values({
        enquiry_id: input.enquiry_id,
        flow_id: flow.id,
        business_id: input.business_id,
        step: i,
        values,
      })
      .onConflictDoUpdate({
        target: aiFlowRuns.enquiry_id,
        set: { flow_id: flow.id, step: i, values, updated_at: new Date() },
      });
  }
  return {
    mode,
    reply: {
      action,
      message: texts.filter(Boolean).join('\n\n'),
      faq_ids: [],
      confidence: 1,
      sources: [{ kind: 'flow', id: flow.id, title: flow.name }],
      provider: input.provider,
      flow_id: flow.id,
    },
  };
}
