import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client.ts';

export type FeedbackInput = { error_code: string; debug_code: string; message: string; path: string };

export async function sendFeedback(input: FeedbackInput): Promise<void> {
  await api.post('/feedback', input);
}

export function useSendFeedback() {
  return useMutation({ mutationFn: sendFeedback });
}
