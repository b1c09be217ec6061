export type { FormKind, FormWebhook } from '@switchboard/shared';

/** The token is the URL's last segment: `{public url}/webhooks/forms/{token}`. */
export function formToken(url: string): string {
  return url.slice(url.lastIndexOf('/') + 1);
}
