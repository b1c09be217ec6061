import { api, type Envelope } from '@/lib/api-client.ts';
import type { Draft } from '../types.ts';

export type DraftInput = {
  message: string;
  subject?: string;
  attachmentIds: string[];
  /** The assistant wrote or rewrote it: kept so the sent message says so (and whether it was changed). */
  ai?: { interaction: 'ai_generated' | 'ai_rewritten'; original: string | null } | null;
};

/**
 * Saved as the person types (the composer debounces it). Quiet on failure: the composer says "Not saved"
 * beside the text rather than raising a notice per keystroke.
 */
export async function saveDraft(enquiryId: string, input: DraftInput): Promise<Draft> {
  const { data } = await api.put<Envelope<Draft>>(
    `/enquiries/${encodeURIComponent(enquiryId)}/draft`,
    {
      message: input.message,
      meta: input.subject ? { subject: input.subject } : {},
      attachments: input.attachmentIds,
      ai_interaction: input.ai?.interaction ?? null,
      ai_original: input.ai?.original ?? null,
    },
    { silent: true },
  );
  return data.body;
}
