import type { MessageTemplateDto } from '@switchboard/shared';

/** One of the business's templates, as the settings page lists it; location_id null means every location. */
export type MessageTemplate = MessageTemplateDto;

/** What the form saves: a null location_id offers the template in every location. */
export type TemplateInput = { name: string; body: string; location_id: string | null };
