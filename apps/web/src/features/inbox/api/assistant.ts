import { AI_TIMEOUT_MS, type AiDraftAnswer, type AiFaq, type AiSource } from '@switchboard/shared';
import { api, type Envelope } from '@/lib/api-client.ts';

export type { AiDraftAnswer, AiSource };

/** The assistant's reply to the customer's last message, kept by the server as this person's draft. */
export async function suggestReply(enquiryId: string): Promise<AiDraftAnswer> {
  const { data } = await api.post<Envelope<AiDraftAnswer>>(
    '/business/ai/response',
    { enquiry_id: enquiryId },
    // The composer says what went wrong beside the buttons.
    { timeout: AI_TIMEOUT_MS, silent: true },
  );
  return data.body;
}

/** The person's text made ready to send (spacing, capitals, greeting, sign-off), kept as their draft. */
export async function rewriteReply(enquiryId: string, message: string): Promise<AiDraftAnswer> {
  const { data } = await api.post<Envelope<AiDraftAnswer>>(
    '/business/ai/rewrite-message',
    { enquiry_id: enquiryId, message },
    { timeout: AI_TIMEOUT_MS, silent: true },
  );
  return data.body;
}

/** The FAQs an answer came from, to show what the assistant relied on. */
export async function faqsByIds(ids: string[]): Promise<AiFaq[]> {
  const { data } = await api.post<Envelope<{ items: AiFaq[] }>>('/business/ai/faqs/get-by-ids', { ids });
  return data.body.items;
}

/** Staff take a conversation from the assistant, or hand it back. */
export async function setNeedsPerson(enquiryId: string, needs: boolean) {
  const { data } = await api.put<Envelope<unknown>>(
    `/enquiries/${encodeURIComponent(enquiryId)}/needs-person`,
    {
      needs_person: needs,
    },
  );
  return data.body;
}

/** Thumbs up or down (with why) on something the assistant said in a conversation. */
export async function rateAssistant(input: {
  message_id: string;
  enquiry_id: string;
  rating: 'up' | 'down';
  feedback: string;
  response: string;
}) {
  await api.post(`/business/ai/messages/${encodeURIComponent(input.message_id)}/rating`, {
    rating: input.rating,
    feedback: input.feedback,
    enquiry_id: input.enquiry_id,
    response: input.response,
  });
}
