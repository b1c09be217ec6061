import type { DbOrTx } from '@switchboard/db';
import { type AiReplyMeta, clipText } from '@switchboard/shared';
import type { Assistant, ReplyInput } from './assistant.ts';
import { faqsFromSections } from './faq-generation.ts';
import { nameWords } from './language.ts';
import { type KnowledgeHit, retrieve } from './retrieval.ts';
import { cleanUpDraft, extractSummary } from './rewrite.ts';

/** The longest part of a document quoted as an answer; longer ones are cut at a sentence. */
const SECTION_ANSWER_CHARS = 600;

/**
 * The assistant with no model: answers with the business's own FAQ answers (found by `retrieve`), asks what
 * the customer needs when a message holds no question, and otherwise hands over to a person. It rewrites by
 * deterministic clean-up and proposes FAQs from a document's structure. Nothing is downloaded, ever.
 */
export function builtinAssistant(): Assistant {
  return {
    kind: 'builtin',
    model: null,
    embeddings: false,
    reply: builtinReply,
    rewrite: async (input) => cleanUpDraft(input.text, input),
    proposeFaqs: async (sections) => faqsFromSections(sections),
    summarise: async (text) => extractSummary(text),
  };
}

/** What the business's knowledge says about the customer's last lines (their names for the business left out). */
export function retrieveForReply(db: DbOrTx, input: ReplyInput) {
  return retrieve(db, {
    business_id: input.business_id,
    location_id: input.location_id,
    text: trailingCustomerLines(input).join('\n'),
    ignore: nameWords(input.business_name, input.location_name),
  });
}

export async function builtinReply(db: DbOrTx, input: ReplyInput): Promise<AiReplyMeta> {
  const found = await retrieveForReply(db, input);
  const base = { provider: 'builtin' as const, flow_id: null };
  if (found.wantsPerson) return handoff(input, 1);
  if (!found.hasQuestion) {
    const message = found.acknowledgement
      ? "You're welcome! Is there anything else we can help you with?"
      : `${hello(input)}thanks for getting in touch with ${input.business_name}. What can we help you with?`;
    return { ...base, action: 'ask', message, faq_ids: [], confidence: 1, sources: [] };
  }
  if (!found.confident) return handoff(input, found.confidence);
  const body = found.answer.map(answerText).join('\n\n');
  return {
    ...base,
    action: 'answer',
    message: input.greet ? `${hello(input)}${lowerFirstWhenSafe(body)}` : body,
    faq_ids: found.answer.filter((h) => h.kind === 'faq').map((h) => h.id),
    confidence: found.confidence,
    sources: found.answer.map((h) => ({ kind: h.kind, id: h.id, title: h.title })),
  };
}

function handoff(input: ReplyInput, confidence: number): AiReplyMeta {
  return {
    action: 'handoff',
    message: input.handoff_message,
    faq_ids: [],
    confidence: Math.max(0, Math.min(1, confidence)),
    sources: [],
    provider: 'builtin',
    flow_id: null,
  };
}

/** The customer's lines since the business last spoke: a quick run of them is one question. */
export function trailingCustomerLines(input: Pick<ReplyInput, 'turns'>): string[] {
  const lines: string[] = [];
  for (let i = input.turns.length - 1; i >= 0; i--) {
    const turn = input.turns[i];
    if (turn?.role !== 'customer') break;
    if (turn.text.trim()) lines.unshift(turn.text.trim());
  }
  return lines;
}

const hello = (input: Pick<ReplyInput, 'first_name' | 'tone'>) => {
  const word = input.tone === 'professional' ? 'Hello' : 'Hi';
  return input.first_name ? `${word} ${input.first_name}, ` : `${word} there, `;
};

/** "Hi Sam, we're open…": the answer's first word loses its capital unless it is a name-like word or "I". */
function lowerFirstWhenSafe(text: string): string {
  const first = text.match(/^[A-Za-z']+/)?.[0] ?? '';
  const common =
    /^(we|we're|our|yes|no|absolutely|most|there|the|a|an|it|you|your|all|each|every|sorry|unfortunately|of|to|for|new|unused)$/i;
  return common.test(first) ? text.charAt(0).toLowerCase() + text.slice(1) : text;
}

function answerText(hit: KnowledgeHit): string {
  if (hit.kind === 'faq' || hit.body.length <= SECTION_ANSWER_CHARS) return hit.body.trim();
  const cut = clipText(hit.body, SECTION_ANSWER_CHARS);
  const end = Math.max(cut.lastIndexOf('. '), cut.lastIndexOf('.\n'));
  return (end > 100 ? cut.slice(0, end + 1) : `${cut.trimEnd()}…`).trim();
}
