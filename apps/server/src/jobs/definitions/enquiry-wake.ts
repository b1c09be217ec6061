import { z } from 'zod';
import { defineJob } from '../define.ts';

/** A snoozed enquiry comes back at its time: live in everyone's list, and its assignee is told. */
export const enquiryWake = defineJob({
  name: 'enquiry.wake',
  payload: z.object({ enquiry_id: z.uuid(), until: z.string() }),
  retry: { retryLimit: 5, retryDelay: 10, retryBackoff: true },
});
