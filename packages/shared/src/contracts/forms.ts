import { z } from 'zod';

export type FormKind = 'web-form' | 'contact-form';

/** `GET /business/mybusiness/{kind}-webhook` (and `…/rotate`): the address a website's form posts to. */
export const FormWebhookSchema = z.object({
  kind: z.enum(['web-form', 'contact-form']),
  channel: z.enum(['web_form', 'contact_form']),
  url: z.string(),
});
export type FormWebhook = z.input<typeof FormWebhookSchema>;

/** What `POST /webhooks/forms/{token}` answers a script (JSON); an HTML form gets a page or a redirect. */
export const FormReceived = z.object({ received: z.literal(true) });

/**
 * `GET /webhooks/forms/{token}`: what the hosted contact page shows about the business it writes to — its
 * name, logo and locations (each with its address). Public; an unknown token is a 404.
 */
export const FormPageInfo = z.object({
  business_name: z.string(),
  logo: z.string().nullable(),
  locations: z.array(
    z.object({ id: z.string(), name: z.string().nullable(), address: z.string().nullable() }),
  ),
});
export type FormPageInfo = z.input<typeof FormPageInfo>;
