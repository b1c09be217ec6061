import { z } from 'zod';
import { defineJob } from '../define.ts';

/** Names a new Messenger or Instagram customer from the provider's profile, after the webhook has answered. */
export const customerProfile = defineJob({
  name: 'meta.customer-profile',
  payload: z.object({ account_id: z.uuid(), external_id: z.string().min(1) }),
  retry: { retryLimit: 4, retryDelay: 30, retryBackoff: true },
});
export type ProfileJob = z.infer<typeof customerProfile.payload>;
