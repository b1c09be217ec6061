import { skipsMarketingScripts } from '@switchboard/shared';
import { api, type Envelope } from './api-client.ts';

export type PublicConfig = { sandbox: boolean; marketing_script_url: string | null };

/** The script to load on this page, or null: only when one is configured and the page allows it. */
export function marketingScriptFor(config: PublicConfig, pathname: string): string | null {
  if (!config.marketing_script_url) return null;
  return skipsMarketingScripts(pathname) ? null : config.marketing_script_url;
}

let started = false;

/**
 * Marketing and analytics scripts are off unless the server names one (`MARKETING_SCRIPT_URL`), and never
 * load on the widget, contact or extension pages. Failures are ignored: they must not affect the product.
 */
export async function loadMarketingScripts(pathname: string = window.location.pathname): Promise<void> {
  if (started || skipsMarketingScripts(pathname)) return;
  started = true;
  try {
    const { data } = await api.get<Envelope<PublicConfig>>('/public/config', { silent: true });
    const src = marketingScriptFor(data.body, pathname);
    if (!src) return;
    const script = document.createElement('script');
    script.src = src;
    script.async = true;
    document.head.appendChild(script);
  } catch {
    // Analytics are optional.
  }
}
