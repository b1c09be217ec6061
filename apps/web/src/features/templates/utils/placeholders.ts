import { nextBusinessDay, type TemplatePlaceholder, type TemplateValues } from '@switchboard/shared';

/** What each placeholder becomes in a conversation, in words for the people writing templates. */
export const PLACEHOLDER_HINTS: Record<TemplatePlaceholder, string> = {
  first_name: 'the customer’s first name',
  business_name: 'your business’s name',
  location_name: 'the location’s name (the business’s name for a location without one)',
  business_day: 'the next weekday, e.g. Monday',
};

/** The customer the preview is written to. */
export const EXAMPLE_FIRST_NAME = 'Alex';

/**
 * Example values for the preview, filled the way the inbox fills them: a location without a name is
 * known to customers by the business's name, and the business day is the next weekday in the business's
 * time zone.
 */
export function exampleValues(input: {
  businessName: string;
  locationName: string | null | undefined;
  timezone: string;
  now: Date;
}): TemplateValues {
  return {
    first_name: EXAMPLE_FIRST_NAME,
    business_name: input.businessName,
    location_name: input.locationName || input.businessName,
    business_day: nextBusinessDay(input.now, input.timezone),
  };
}

export type TextSelection = { start: number; end: number };

/**
 * Puts `insert` where the cursor is, replacing any selected text, and says where the cursor goes next
 * (just after what was inserted). Out-of-range positions are clamped, so a stale selection still lands.
 */
export function insertAtCursor(
  value: string,
  selection: TextSelection,
  insert: string,
): { value: string; cursor: number } {
  const start = Math.min(Math.max(0, Math.min(selection.start, selection.end)), value.length);
  const end = Math.min(Math.max(start, Math.max(selection.start, selection.end)), value.length);
  return { value: value.slice(0, start) + insert + value.slice(end), cursor: start + insert.length };
}
