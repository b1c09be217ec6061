export type FormKind = 'web-form' | 'contact-form';

export type FormWebhook = { kind: FormKind; channel: 'web_form' | 'contact_form'; url: string };

/** The token is the URL's last segment: `{public url}/webhooks/forms/{token}`. */
export function formToken(url: string): string {
  return url.slice(url.lastIndexOf('/') + 1);
}
