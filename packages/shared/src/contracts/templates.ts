import { z } from 'zod';
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

/** One template as `GET /templates` lists it; location_id null means every location. */
export type MessageTemplateDto = {
  id: string;
  name: string;
  body: string;
  location_id: string | null;
  updated_at: string;
};
