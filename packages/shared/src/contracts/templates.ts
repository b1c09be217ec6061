import { z } from 'zod';
import { Timestamp } from './fields.ts';
import { Uuid } from './ids.ts';

export const TEMPLATE_MAX_NAME_CHARS = 100;
export const TEMPLATE_MAX_BODY_CHARS = 5000;

/** `POST /templates`: a null or missing location_id offers the template in every location. */
export const TemplateRequest = z.strictObject({
  name: z.string().trim().min(1).max(TEMPLATE_MAX_NAME_CHARS),
  body: z.string().trim().min(1).max(TEMPLATE_MAX_BODY_CHARS),
  location_id: Uuid.nullable().optional(),
});
export type TemplateRequest = z.infer<typeof TemplateRequest>;

/** `PUT /templates/{id}`: any of the fields, at least one. */
export const TemplatePatchRequest = TemplateRequest.partial().refine(
  (v) => Object.keys(v).length > 0,
  'Nothing to change: send name, body or location_id.',
);
export type TemplatePatchRequest = z.infer<typeof TemplatePatchRequest>;

/** `GET /templates`: a location's templates (its own and those for every location), or all of them. */
export const TemplatesQuery = z.strictObject({ location_id: Uuid.optional() });

/** One template as `GET /templates` lists it; location_id null means every location. */
export const MessageTemplate = z.object({
  id: z.string(),
  name: z.string(),
  body: z.string(),
  location_id: z.string().nullable(),
  updated_at: Timestamp,
});
export type MessageTemplateDto = z.input<typeof MessageTemplate>;

export const MessageTemplateList = z.object({ items: z.array(MessageTemplate) });

/** `GET /enquiries/{id}/templates`: each template with its placeholders filled for the enquiry's customer. */
export const RenderedTemplateList = z.object({
  items: z.array(MessageTemplate.extend({ rendered: z.string() })),
});
export type RenderedTemplateDto = z.input<typeof RenderedTemplateList>['items'][number];

export const TemplateDeleted = z.object({ deleted: z.literal(true) });
