import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { DbOrTx } from '@switchboard/db';
import { AiReply, type AiReplyMeta, clipText } from '@switchboard/shared';
import {
  type EmbeddingModel,
  embedMany,
  generateText,
  jsonSchema,
  type LanguageModel,
  Output,
  stepCountIs,
  type ToolSet,
  tool,
} from 'ai';
import { z } from 'zod';
import type { AiConfig } from '../../config.ts';
import { AppError } from '../../errors.ts';
import { storableText } from '../../lib/text.ts';
import type {
  Assistant,
  DocumentSection,
  ReplyInput,
  RewriteInput,
  RunnableTool,
  Voice,
} from './assistant.ts';
import { retrieveForReply, trailingCustomerLines } from './builtin.ts';
import { type Embedder, fillEmbeddings, mergeHits, nearestFaqs } from './embeddings.ts';
import type { KnowledgeHit } from './retrieval.ts';

/** At most this many model calls and tool runs for one reply. */
export const MAX_TOOL_STEPS = 5;

/** A model call that failed or timed out: the caller says so (a route 503s, auto-reply hands over). */
export class ModelUnavailableError extends Error {}

/** A model that did not answer is the server's trouble (503), said in words. */
export async function assistOrExplain<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ModelUnavailableError) throw new AppError('service_unavailable', error.message);
    throw error;
  }
}

export type ModelOptions = AiConfig;

/** The business's HTTP tools as the SDK's tool loop calls them (each run through the guarded fetch). */
function toolSetOf(tools: RunnableTool[] | undefined): ToolSet | undefined {
  if (!tools?.length) return undefined;
  return Object.fromEntries(
    tools.map((t) => [
      t.name,
      tool({
        description: t.description,
        inputSchema: jsonSchema<Record<string, unknown>>(t.parameters as never),
        execute: async (args: Record<string, unknown>) => t.run(args),
      }),
    ]),
  );
}

/** The model provider when one is configured in these environment variables (scripts), else null. */
export function modelAssistantFromEnv(env: NodeJS.ProcessEnv): Assistant | null {
  if (!env.AI_BASE_URL) return null;
  return modelAssistant({
    baseUrl: env.AI_BASE_URL.replace(/\/+$/, ''),
    apiKey: env.AI_API_KEY,
    model: env.AI_MODEL ?? 'gpt-4o-mini',
    embeddingsModel: env.AI_EMBEDDINGS_MODEL,
    timeoutMs: Number(env.AI_TIMEOUT_MS ?? 300_000),
  });
}

/**
 * The assistant on an OpenAI-compatible chat model (OpenAI, a local llama.cpp or vLLM server…). It is given
 * the same knowledge the built-in assistant finds for the message, and must answer with the structured reply
 * (`AiReply`): an answer naming the FAQs it used, a question back, or a handoff. An answer that names no FAQ
 * or document of what it was given is not trusted: the conversation goes to a person instead.
 */
export function modelAssistant(
  config: ModelOptions,
  /** Models to use instead of the configured server's (tests: the AI SDK's mock models). */
  models: { chat?: LanguageModel; embeddings?: EmbeddingModel } = {},
): Assistant {
  const provider = createOpenAICompatible({
    name: 'switchboard-ai',
    baseURL: config.baseUrl ?? '',
    ...(config.apiKey ? { apiKey: config.apiKey } : {}),
    supportsStructuredOutputs: true,
  });
  const chat: LanguageModel = models.chat ?? provider.chatModel(config.model);
  const embeddingsModel =
    models.embeddings ?? (config.embeddingsModel ? provider.embeddingModel(config.embeddingsModel) : null);
  const embed: Embedder | null = embeddingsModel
    ? async (values) =>
        (
          await embedMany({
            model: embeddingsModel,
            values,
            abortSignal: AbortSignal.timeout(config.timeoutMs),
            maxRetries: 1,
          })
        ).embeddings
    : null;
  const call = async <T>(run: (signal: AbortSignal) => Promise<T>): Promise<T> => {
    try {
      return await run(AbortSignal.timeout(config.timeoutMs));
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new ModelUnavailableError(`The AI model did not answer: ${reason}`, { cause: error });
    }
  };

  return {
    kind: 'model',
    model: config.model,
    embeddings: !!embeddingsModel,

    async reply(db: DbOrTx, input: ReplyInput): Promise<AiReplyMeta> {
      let knowledge = (await retrieveForReply(db, input)).hits;
      if (embed) knowledge = await withMeaning(db, input, knowledge, embed);
      const tools = toolSetOf(input.tools);
      const result = await call((abortSignal) =>
        generateText({
          model: chat,
          system: systemPrompt(input, knowledge),
          messages: input.turns.map((t) => ({
            role: t.role === 'customer' ? ('user' as const) : ('assistant' as const),
            content: t.text,
          })),
          output: Output.object({ schema: AiReply }),
          ...(tools ? { tools, stopWhen: stepCountIs(MAX_TOOL_STEPS) } : {}),
          abortSignal,
          maxRetries: 1,
        }),
      );
      // What the model wrote is stored as it is: kept whatever characters it holds (a NUL, half an emoji).
      const reply = storableText(result.output);
      const known = new Map(knowledge.map((k) => [k.id, k]));
      const used = reply.faq_ids.filter((id) => known.has(id));
      const handoff = (): AiReplyMeta => ({
        action: 'handoff',
        message: input.handoff_message,
        faq_ids: [],
        confidence: reply.confidence,
        sources: [],
        provider: 'model',
        flow_id: null,
      });
      if (reply.action === 'handoff') return handoff();
      if (reply.action === 'answer' && !used.length && !toolsWereUsed(result)) return handoff();
      const sources = used.map((id) => {
        const k = known.get(id)!;
        return { kind: k.kind, id: k.id, title: k.title };
      });
      return {
        action: reply.action,
        message: reply.message.trim() || input.handoff_message,
        faq_ids: sources.filter((s) => s.kind === 'faq').map((s) => s.id),
        confidence: reply.confidence,
        sources,
        provider: 'model',
        flow_id: null,
      };
    },

    async rewrite(input: RewriteInput): Promise<string> {
      const { text } = await call((abortSignal) =>
        generateText({
          model: chat,
          system:
            `You rewrite a staff member's draft reply to a customer of ${input.business_name} so it is clear, ` +
            `correct and ${input.tone}. Keep its meaning and every fact, add nothing new, keep it about as long. ` +
            `Greet the customer${input.first_name ? ` (${input.first_name})` : ''} if the draft does not, and ` +
            `sign off as ${input.sender ? `${input.sender}, ` : ''}${input.business_name}. Reply with the text only.`,
          prompt: input.text,
          abortSignal,
          maxRetries: 1,
        }),
      );
      return text.trim();
    },

    async proposeFaqs(sections: DocumentSection[], voice) {
      const schema = z.object({
        faqs: z.array(z.object({ question: z.string(), answer: z.string(), section: z.number().int() })),
      });
      const { output } = await call((abortSignal) =>
        generateText({
          model: chat,
          system:
            `From the document parts below, write the questions customers of ${voice.business_name} would ask ` +
            'that the document answers, each with its answer taken from the document (nothing else). ' +
            '`section` is the number of the part the answer came from.',
          prompt: clipText(sections.map((s, i) => `[${i}] ${s.heading}\n${s.body}`).join('\n\n'), 60_000),
          output: Output.object({ schema }),
          abortSignal,
          maxRetries: 1,
        }),
      );
      return output.faqs
        .filter((f) => f.question.trim() && f.answer.trim())
        .map((f) => ({
          question: f.question.trim(),
          answer: f.answer.trim(),
          section_id: sections[f.section]?.id ?? null,
        }));
    },

    async summarise(text: string) {
      const { text: summary } = await call((abortSignal) =>
        generateText({
          model: chat,
          system:
            'Summarise this conversation for a busy staff member in at most three sentences. Say only what was said.',
          prompt: clipText(text, 60_000),
          abortSignal,
          maxRetries: 1,
        }),
      );
      return summary.trim();
    },
  };
}

/**
 * Hybrid retrieval when an embeddings model is configured: FAQs not yet embedded are embedded, the customer's
 * lines too, and the FAQs nearest in meaning join those the words found. If the embeddings model fails, the
 * words alone still find what they find.
 */
async function withMeaning(db: DbOrTx, input: ReplyInput, byWords: KnowledgeHit[], embed: Embedder) {
  try {
    await fillEmbeddings(db, input.business_id, embed);
    const [vector] = await embed([trailingCustomerLines(input).join('\n')]);
    if (!vector) return byWords;
    return mergeHits(byWords, await nearestFaqs(db, input, vector));
  } catch {
    return byWords;
  }
}

function toolsWereUsed(result: { steps: { toolResults: unknown[] }[] }): boolean {
  return result.steps.some((s) => s.toolResults.length > 0);
}

function systemPrompt(voice: Voice, knowledge: KnowledgeHit[]): string {
  const facts = knowledge.length
    ? knowledge.map((k) => `[${k.id}] ${k.title}\n${k.body}`).join('\n\n')
    : '(nothing in the knowledge matches this message)';
  return [
    `You answer customers of ${voice.business_name}${voice.location_name ? ` (${voice.location_name})` : ''} ` +
      `by text message, in a ${voice.tone} tone, briefly.`,
    voice.profile.description && `About the business: ${voice.profile.description}`,
    voice.profile.services && `Services: ${voice.profile.services}`,
    voice.profile.hours && `Hours: ${voice.profile.hours}`,
    voice.first_name && `The customer's first name is ${voice.first_name}.`,
    'Answer only from the knowledge below (and tool results). Put the ids of the knowledge items you used in ' +
      'faq_ids. If the knowledge does not answer the question, or the customer wants a person, or you are not ' +
      'sure, set action "handoff". If you need one detail from the customer to answer, set action "ask" and ' +
      'ask it. confidence is how sure you are (0 to 1).',
    `Knowledge:\n${facts}`,
  ]
    .filter(Boolean)
    .join('\n\n');
}
