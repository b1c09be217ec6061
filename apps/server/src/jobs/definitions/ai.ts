import { z } from 'zod';
import { defineJob } from '../define.ts';

/**
 * The assistant answers a customer's message (auto-reply on, or a suggestion for staff). Run a few seconds
 * after the message, so quick follow-up lines are answered together; a model that does not answer is retried.
 */
export const aiAutoReply = defineJob({
  name: 'ai.auto-reply',
  // Queued with the message (before its enquiry is known), so the enquiry is the message's; older jobs name it.
  payload: z.object({ message_id: z.uuid(), enquiry_id: z.uuid().optional() }),
  retry: { retryLimit: 3, retryDelay: 20, retryBackoff: true },
  // Its worker heartbeats: an answer a stopped server was writing is taken over in seconds, not at expiry.
  options: { heartbeatSeconds: 10 },
});

/** Staff answered a conversation the assistant handed over: it proposes an FAQ (or a phrasing) from it. */
export const aiLearn = defineJob({
  name: 'ai.learn',
  payload: z.object({ enquiry_id: z.uuid(), message_id: z.uuid() }),
  retry: { retryLimit: 3, retryDelay: 30, retryBackoff: true },
});

/** A document or website the owner gave the assistant: FAQs proposed from it (a website fetched again first). */
export const aiDocument = defineJob({
  name: 'ai.document',
  payload: z.object({ document_id: z.uuid(), refetch: z.boolean() }),
  retry: { retryLimit: 2, retryDelay: 60, retryBackoff: true },
});
