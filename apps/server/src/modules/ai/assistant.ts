import type { DbOrTx } from '@switchboard/db';
import type { AiProviderKind, AiReplyMeta, AiToolParameters } from '@switchboard/shared';

/** One line of the conversation so far, oldest first, as the assistant is shown it. */
export type Turn = { role: 'customer' | 'business'; text: string };

/** Who the assistant is speaking for, and to whom. */
export type Voice = {
  business_id: string;
  business_name: string;
  location_id: string | null;
  location_name: string | null;
  /** The customer's first name, when known. */
  first_name: string | null;
  tone: 'friendly' | 'professional' | 'casual';
  /** About the business, from onboarding: what it does, its services and hours. */
  profile: { description: string; services: string; hours: string };
  /** Sent when it hands over, placeholders already filled. */
  handoff_message: string;
};

export type ReplyInput = Voice & {
  /** The conversation so far; the customer's last lines (answered together) come last. */
  turns: Turn[];
  /** The first reply of the assistant in this conversation: it greets the customer by name. */
  greet: boolean;
  /** The business's HTTP tools a model may call while answering (the built-in assistant calls them in flows). */
  tools?: RunnableTool[];
};

export type RewriteInput = Pick<Voice, 'business_name' | 'first_name' | 'tone'> & {
  text: string;
  /** The name to sign with (the person sending). */
  sender: string | null;
};

/** A question and its answer proposed from a part of a document. */
export type ProposedFaq = { question: string; answer: string; section_id: string | null };

export type DocumentSection = { id: string | null; heading: string; body: string };

/**
 * What every provider of the assistant does. The built-in one needs no model; the model one asks an
 * OpenAI-compatible chat model. Both answer from the business's own knowledge (retrieved the same way), say
 * which FAQs or documents each answer came from, and hand over to a person when they are not sure.
 */
export interface Assistant {
  readonly kind: AiProviderKind;
  /** The model's name, for the settings page (null for the built-in assistant). */
  readonly model: string | null;
  readonly embeddings: boolean;
  reply(db: DbOrTx, input: ReplyInput): Promise<AiReplyMeta>;
  rewrite(input: RewriteInput): Promise<string>;
  proposeFaqs(sections: DocumentSection[], voice: Pick<Voice, 'business_name'>): Promise<ProposedFaq[]>;
  summarise(text: string): Promise<string>;
}

/** A tool as the assistant runs it: its description, parameters and how to call it. */
export type RunnableTool = {
  id: string;
  name: string;
  description: string;
  parameters: AiToolParameters;
  run(args: Record<string, unknown>): Promise<string>;
};
