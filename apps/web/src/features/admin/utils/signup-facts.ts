/** One line of what a business's sign-up recorded, for the admin console. */
export type SignupFact = { label: string; value: string };

const CLICK_IDS: Record<string, string> = {
  gclid: 'Google Ads click',
  fbclid: 'Facebook or Instagram click',
  msclkid: 'Microsoft Ads click',
};

const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);

/**
 * The sign-up record (where the request came from, the campaign it followed, who referred it) as labelled lines
 * instead of its stored JSON; values it does not know are listed by their own names so nothing is hidden.
 */
export function signupFacts(meta: Record<string, unknown>): SignupFact[] {
  const facts: SignupFact[] = [];
  const place = [text(meta.city), text(meta.region), text(meta.country)].filter(Boolean).join(', ');
  if (text(meta.ip)) facts.push({ label: 'From', value: place ? `${meta.ip} (${place})` : String(meta.ip) });
  if (meta.is_vpn === true) facts.push({ label: 'Connection', value: 'Through a VPN' });
  const referrer = meta.referred_by as { name?: unknown } | undefined;
  if (referrer && text(referrer.name)) facts.push({ label: 'Referred by', value: String(referrer.name) });

  const tracking = (meta.tracking ?? {}) as Record<string, unknown>;
  const campaign = ['utm_source', 'utm_medium', 'utm_campaign']
    .map((k) => text(tracking[k]))
    .filter(Boolean)
    .join(' / ');
  if (campaign) facts.push({ label: 'Campaign', value: campaign });
  for (const [name, value] of Object.entries(tracking)) {
    if (name === 'utm_source' || name === 'utm_medium' || name === 'utm_campaign' || !text(value)) continue;
    const click = CLICK_IDS[name];
    facts.push(click ? { label: click, value: String(value) } : { label: name, value: String(value) });
  }
  return facts;
}
