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
