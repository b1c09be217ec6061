import { clipText } from '@switchboard/shared';
/** The host page a visitor started the chat on, as the widget loader saw it. */
export type PageData = {
  url?: string;
  referrer?: string;
  utm_source?: string;
  utm_medium?: string;
  utm_campaign?: string;
  gclid?: string;
  fbclid?: string;
  msclkid?: string;
};

export type Attribution = { source: string; medium: string; campaign?: string };

const clean = (v: string | undefined) => clipText((v ?? '').trim(), 200) || undefined;

function hostOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).hostname.replace(/^www\./, '') || undefined;
  } catch {
    return undefined;
  }
}

/**
 * Where the visitor came from: utm_* first, else a click id (gclid → google/cpc, fbclid → facebook/paid
 * social, msclkid → bing/cpc), else the referrer's host (unless it is the site itself) as a referral, else direct.
 */
export function attribute(page: PageData): Attribution {
  const campaign = clean(page.utm_campaign);
  const utmSource = clean(page.utm_source);
  const utmMedium = clean(page.utm_medium);
  if (utmSource || utmMedium) {
    return {
      source: utmSource ?? 'unknown',
      medium: utmMedium ?? 'unknown',
      ...(campaign ? { campaign } : {}),
    };
  }
  const withCampaign = (a: Attribution): Attribution => (campaign ? { ...a, campaign } : a);
  if (clean(page.gclid)) return withCampaign({ source: 'google', medium: 'cpc' });
  if (clean(page.fbclid)) return withCampaign({ source: 'facebook', medium: 'paid social' });
  if (clean(page.msclkid)) return withCampaign({ source: 'bing', medium: 'cpc' });
  const referrer = hostOf(page.referrer);
  if (referrer && referrer !== hostOf(page.url))
    return withCampaign({ source: referrer, medium: 'referral' });
  return withCampaign({ source: 'direct', medium: 'none' });
}
