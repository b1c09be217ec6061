import { z } from 'zod';
import { Timestamp } from './fields.ts';

/**
 * What a new business does to start answering customers, in the order the checklist shows them: a number to
 * text, the chat on its website, a teammate, the assistant taught, card payments, a review link, opening hours.
 */
export const SETUP_ITEMS = [
  'number',
  'chat',
  'team',
  'assistant',
  'payments',
  'review_link',
  'hours',
] as const;
export type SetupItemKey = (typeof SETUP_ITEMS)[number];

export const SetupItem = z.object({
  key: z.enum(SETUP_ITEMS),
  /** Worked out from the business's own data each time it is asked, never stored. */
  done: z.boolean(),
  /** The location its screen opens at: the first one still without it (or the first one). */
  location_id: z.string().nullable(),
});
export type SetupItemDto = z.input<typeof SetupItem>;

/** `GET /business/setup` (everyone in the business): the checklist's items, for the features the business has. */
export const SetupChecklist = z.object({
  items: z.array(SetupItem),
  /** Where a test text goes: a number customers can text, at the reader's location when it has one. */
  number: z
    .object({
      phone: z.string(),
      location_id: z.string(),
      location_name: z.string().nullable(),
      /** A sandbox number: texted from the simulator, not from a real phone. */
      sandbox: z.boolean(),
    })
    .nullable(),
  /** Whether any enquiry has reached the business yet (the inbox shows the checklist until one has). */
  has_enquiries: z.boolean(),
  /** When the owner put the checklist away; null: shown. */
  dismissed_at: Timestamp.nullable(),
});
/** As the server answers it (moments as dates); the web app reads `SetupChecklistJson`. */
export type SetupChecklistDto = z.output<typeof SetupChecklist>;
export type SetupChecklistJson = z.input<typeof SetupChecklist>;

/** `PUT /business/setup` (owners): put the checklist away, or bring it back. */
export const UpdateSetupRequest = z.strictObject({
  dismissed: z.boolean('Say whether the checklist is put away (true) or shown (false)'),
});
