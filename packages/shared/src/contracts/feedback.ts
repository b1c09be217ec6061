import { z } from 'zod';

/** `POST /feedback`: what a person tells us from an error screen or the help menu. */
export const FeedbackRequest = z.strictObject({
  error_code: z.string().max(200).optional(),
  debug_code: z.string().max(200).optional(),
  message: z.string().trim().min(1, 'Please enter your feedback').max(5000),
  path: z.string().max(2000).optional(),
});
export type FeedbackRequest = z.input<typeof FeedbackRequest>;
export const FeedbackAnswer = z.object({ received: z.literal(true) });
