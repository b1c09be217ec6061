import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client.ts';
import type { ContactSubmission } from '../types.ts';

/** Statuses the page explains beside the form instead of as a notice. */
const SHOWN_INLINE = [400, 404, 422, 429] as const;

/** The public form webhook sits beside the API (`/webhooks/forms/{token}`), not under `/api/v1`. */
export async function submitContactForm({
  token,
  ...fields
}: ContactSubmission & { token: string }): Promise<void> {
  await api.post(`/webhooks/forms/${encodeURIComponent(token)}`, fields, {
    baseURL: '/',
    handledStatuses: SHOWN_INLINE,
  });
}

export function useSubmitContactForm() {
  return useMutation({ mutationFn: submitContactForm });
}
