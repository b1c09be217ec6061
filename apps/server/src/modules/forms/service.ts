import { randomBytes, randomUUID } from 'node:crypto';
import { businesses, type Db, locations } from '@switchboard/db';
import { type FormPageInfo, isUuid, isValidEmail } from '@switchboard/shared';
import { and, eq, or } from 'drizzle-orm';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import type { InboundSink } from '../../channels/types.ts';
import type { DbActor } from '../../context.ts';
import { AppError, fieldError } from '../../errors.ts';
import { recordAudit } from '../../lib/audit.ts';
import { requireOwner } from '../../plugins/auth.ts';

export const FORM_KINDS = { 'web-form': 'web_form', 'contact-form': 'contact_form' } as const;
export type FormKind = keyof typeof FORM_KINDS;
type Channel = (typeof FORM_KINDS)[FormKind];

const column = (channel: Channel) => (channel === 'web_form' ? 'web_form_token' : 'contact_form_token');

export const formUrl = (publicUrl: string, token: string) => `${publicUrl}/webhooks/forms/${token}`;

/** The business's secret inbound URL for a form kind; the token is made on first use. */
export async function getFormWebhook(
  { db, actor }: DbActor,
  kind: FormKind,
  publicUrl: string,
  rotate = false,
) {
  const a = requireOwner(actor, 'see or change the form webhook');
  const channel = FORM_KINDS[kind];
  const [b] = await db.select().from(businesses).where(eq(businesses.id, a.business_id));
  let token = b![column(channel)];
  if (!token || rotate) {
    token = randomBytes(24).toString('base64url');
    await db
      .update(businesses)
      .set({ [column(channel)]: token })
      .where(eq(businesses.id, a.business_id));
    if (rotate) {
      await recordAudit(db, a, `${channel}.webhook.rotate`);
    }
  }
  return { kind, channel, url: formUrl(publicUrl, token) };
}

const KNOWN = new Set([
  'name',
  'first_name',
  'last_name',
  'email',
  'phone',
  'message',
  'location_id',
  'subject',
]);
/** Bots fill every field; people never see these. A submission with one filled is accepted and dropped. */
export const HONEYPOTS = ['_gotcha', '_honeypot', 'website_url'];

export type FormSubmission = Record<string, string>;

/** Where a form post goes: the business whose token it names, the channel, and the location it lands in. */
export type FormTarget = {
  business_id: string;
  channel: Channel;
  location: { id: string; intake_limits: Record<string, unknown> | null };
  /** The business's own site origins: the only places `_redirect` may send the visitor. */
  site_origins: string[];
};

/** What the hosted contact page shows for a form token: the business's name, logo and locations. */
export async function formPageInfo(db: Db, token: string): Promise<FormPageInfo> {
  const unknown = () => new AppError('not_found', 'This form is not available.');
  if (token.length < 16 || token.length > 64) throw unknown();
  const [b] = await db
    .select({ id: businesses.id, name: businesses.name, image: businesses.image })
    .from(businesses)
    .where(or(eq(businesses.web_form_token, token), eq(businesses.contact_form_token, token)));
  if (!b) throw unknown();
  const list = await db
    .select({ id: locations.id, name: locations.name, address: locations.address })
    .from(locations)
    .where(eq(locations.business_id, b.id))
    .orderBy(locations.precedence, locations.created_at);
  return { business_name: b.name, logo: b.image, locations: list };
}

/** Finds what a form token and its `location_id` field name; 404 for an unknown token, 422 for a wrong location. */
export async function findFormTarget(db: Db, token: string, fields: FormSubmission): Promise<FormTarget> {
  if (token.length < 16 || token.length > 64)
    throw new AppError('not_found', 'This form address is not known.');
  const [b] = await db
    .select({
      id: businesses.id,
      web: businesses.web_form_token,
      contact: businesses.contact_form_token,
      website: businesses.website,
      site_origins: businesses.site_origins,
    })
    .from(businesses)
    .where(or(eq(businesses.web_form_token, token), eq(businesses.contact_form_token, token)));
  if (!b) throw new AppError('not_found', 'This form address is not known.');
  return {
    business_id: b.id,
    channel: b.web === token ? 'web_form' : 'contact_form',
    location: await pickLocation(db, b.id, fields.location_id),
    site_origins: siteOrigins(b.website, b.site_origins),
  };
}

/** The origins of the business's website and its other site addresses. */
export function siteOrigins(website: string | null, others: readonly string[]): string[] {
  const origins = new Set<string>();
  for (const url of [website, ...others]) {
    if (!url) continue;
    try {
      origins.add(new URL(url).origin);
    } catch {
      // Not a URL (entered before it was checked): names no site.
    }
  }
  return [...origins];
}

/** `_redirect` when it is a page of one of the business's own sites, else null (the thank-you page instead). */
export function safeRedirect(redirect: string | undefined, origins: readonly string[]): string | null {
  if (!redirect) return null;
  try {
    const url = new URL(redirect);
    return (url.protocol === 'https:' || url.protocol === 'http:') && origins.includes(url.origin)
      ? url.toString()
      : null;
  } catch {
    return null;
  }
}

/**
 * A form post becomes a message in the customer's enquiry through the common inbound pipeline; fields other
 * than the contact details are kept in the message's meta.
 */
export async function receiveForm(
  ctx: { inbound: InboundSink },
  target: FormTarget,
  fields: FormSubmission,
): Promise<{ stored: boolean; enquiry_id?: string }> {
  const channel = target.channel;
  if (HONEYPOTS.some((h) => fields[h]?.trim())) return { stored: false };
  const email = fields.email?.trim().toLowerCase() || undefined;
  const rawPhone = fields.phone?.trim() || undefined;
  if (!email && !rawPhone) {
    throw new AppError('unprocessable', 'Please give an email address or a phone number so we can reply.');
  }
  if (email && !isValidEmail(email))
    throw fieldError('unprocessable', 'email', `${email} is not a valid email.`);
  let phone: string | undefined;
  if (rawPhone) {
    const parsed = parsePhoneNumberFromString(rawPhone, 'AU');
    if (!parsed?.isValid())
      throw fieldError('unprocessable', 'phone', `${rawPhone} is not a valid phone number.`);
    phone = parsed.number;
  }
  const name =
    fields.name?.trim() ||
    [fields.first_name, fields.last_name]
      .map((s) => s?.trim())
      .filter(Boolean)
      .join(' ') ||
    undefined;
  const message = fields.message?.trim() ?? '';

  const locationId = target.location.id;
  const extra = Object.fromEntries(
    Object.entries(fields).filter(
      ([k, v]) => !KNOWN.has(k) && !HONEYPOTS.includes(k) && !k.startsWith('_') && v !== '',
    ),
  );
  const result = await ctx.inbound.receive({
    provider: channel,
    provider_message_id: randomUUID(),
    channel,
    location_id: locationId,
    // Email first: a web-form reply goes by email when there is one.
    from: { email, phone: email ? undefined : phone, name },
    message: message || '(Form submitted without a message)',
    subject: fields.subject?.trim() || undefined,
    meta: { form: extra, ...(email && phone ? { phone } : {}) },
    source: extra.utm_source,
    medium: extra.utm_medium,
    campaign: extra.utm_campaign,
  });
  return { stored: true, enquiry_id: result.enquiry.id };
}

async function pickLocation(db: Db, businessId: string, requested?: string): Promise<FormTarget['location']> {
  const columns = { id: locations.id, intake_limits: locations.intake_limits };
  if (requested && isUuid(requested)) {
    const [l] = await db
      .select(columns)
      .from(locations)
      .where(and(eq(locations.id, requested.toLowerCase()), eq(locations.business_id, businessId)));
    if (l) return l;
  }
  if (requested) throw new AppError('unprocessable', 'The form names a location that does not exist.');
  const [first] = await db
    .select(columns)
    .from(locations)
    .where(eq(locations.business_id, businessId))
    .orderBy(locations.precedence, locations.created_at)
    .limit(1);
  if (!first) throw new AppError('not_found', 'This form address is not known.');
  return first;
}
