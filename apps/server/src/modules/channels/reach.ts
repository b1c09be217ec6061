import { channelAccounts, locations } from '@switchboard/db';
import { CHANNELS_OF, channelDisplayName, type LocationReach, type Provider } from '@switchboard/shared';
import { and, asc, eq } from 'drizzle-orm';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { PROVIDER_NAMES } from '../../channels/catalogue.ts';
import { inboundAddress } from '../../channels/email/address.ts';
import type { Context } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { requireBusiness } from '../../plugins/auth.ts';

type Item = LocationReach['items'][number];

const CHANNEL_LABEL: Record<Provider, string> = {
  twilio: 'SMS & MMS',
  whatsapp: 'WhatsApp',
  messenger: 'Messenger',
  instagram: 'Instagram',
  google_rcs: 'Google RCS',
};

/**
 * A number that cannot take texts: a landline, where the country's numbering plan tells landlines from mobiles
 * (Australia and the UK do; North American numbers may be either, so they are not called landlines).
 */
export function isLandline(number: string): boolean {
  return parsePhoneNumberFromString(number)?.getType() === 'FIXED_LINE';
}

/** What customers see of an account: its number, or the page, profile or agent it stands for. */
function shownAddress(provider: Provider, config: Record<string, unknown>, address: string | null): string {
  const text = (key: string) =>
    typeof config[key] === 'string' && config[key] ? (config[key] as string) : null;
  switch (provider) {
    case 'twilio':
      return (
        text('phone_number') ?? `Messaging service ${text('messaging_service_sid') ?? address ?? ''}`.trim()
      );
    case 'whatsapp':
      return text('display_phone_number') ?? `Number id ${text('phone_number_id') ?? address ?? ''}`.trim();
    case 'messenger':
      return text('page_name') ?? `Page ${text('page_id') ?? address ?? ''}`.trim();
    case 'instagram':
      return text('username')
        ? `@${text('username')}`
        : `Account ${text('instagram_account_id') ?? address ?? ''}`.trim();
    case 'google_rcs':
      return text('agent_name') ?? `Agent ${text('agent_id') ?? address ?? ''}`.trim();
    default: {
      const never: never = provider;
      return never;
    }
  }
}

/**
 * One answer for "where do customers reach this location, and what do we write from": the connected
 * accounts (one per provider, which also starts conversations), the location's own number
 * when no account carries it, the inbound email address and the address new emails come from, and the chat.
 */
export async function locationReach(
  ctx: Pick<Context, 'db' | 'actor' | 'config'>,
  locationId: string,
): Promise<LocationReach> {
  const a = requireBusiness(ctx.actor);
  const [location] = await ctx.db
    .select()
    .from(locations)
    .where(and(eq(locations.id, locationId), eq(locations.business_id, a.business_id)));
  if (!location) throw new AppError('not_found', 'Location not found.');
  const accounts = await ctx.db
    .select()
    .from(channelAccounts)
    .where(eq(channelAccounts.location_id, location.id))
    .orderBy(asc(channelAccounts.created_at), asc(channelAccounts.id));

  const items: Item[] = [];
  const connected = new Set<Provider>();
  // A location has at most one account per provider: it receives, and it starts conversations.
  for (const account of accounts) {
    const provider = account.provider as Provider;
    const displaced = account.displaced_at !== null;
    if (!displaced) connected.add(provider);
    items.push({
      channel: CHANNELS_OF[provider][0] ?? provider,
      label: CHANNEL_LABEL[provider],
      // Secrets are never read here: only the public fields that name the number or page.
      address: shownAddress(provider, account.config as Record<string, unknown>, account.address),
      via: displaced ? 'Disconnected' : PROVIDER_NAMES[provider],
      starts_conversations: !displaced,
      note: displaced
        ? `Another business showed ${PROVIDER_NAMES[provider]} this is theirs: nothing is received or sent on it here.`
        : null,
    });
  }
  const twilioNumbers = new Set(
    items.filter((i) => i.via === 'Twilio' || i.label === 'SMS & MMS').map((i) => i.address),
  );
  if (
    location.phone_number &&
    !twilioNumbers.has(location.phone_number) &&
    isLandline(location.phone_number)
  ) {
    items.push({
      channel: 'phone_call',
      label: 'Phone',
      address: location.phone_number,
      via: 'Landline',
      starts_conversations: false,
      note: 'A landline: customers can ring it, but it cannot take texts. Get a number for texting, or connect the Twilio account of a number that can.',
    });
  } else if (location.phone_number && !twilioNumbers.has(location.phone_number)) {
    const sandbox = ctx.config.sandbox && !connected.has('twilio');
    items.push({
      channel: 'sms',
      label: 'SMS & MMS',
      address: location.phone_number,
      via: sandbox ? 'Sandbox' : 'Not connected',
      starts_conversations: sandbox,
      note: sandbox
        ? 'A sandbox number: texts to it are played in the simulator.'
        : 'Connect the Twilio account that owns this number to receive and send texts on it.',
    });
  }
  const domain = ctx.config.email.inboundDomain;
  items.push({
    channel: 'email',
    label: channelDisplayName('email'),
    address: inboundAddress(domain, location.inbound_email_token),
    via: 'Switchboard mail',
    starts_conversations: false,
    note: "Customers write here (or to the location's mailbox, forwarded here); replies to your emails come back here.",
  });
  items.push({
    channel: 'email',
    label: channelDisplayName('email'),
    address: location.email_address ?? `no-reply@${domain}`,
    via: 'Switchboard mail',
    starts_conversations: true,
    note: location.email_address
      ? 'New emails and replies are sent from this address (set in Locations).'
      : 'No address set for this location in Locations: emails are sent from this no-reply address.',
  });
  items.push({
    channel: 'widget',
    label: 'Website chat',
    address: 'The chat bubble on your website',
    via: 'Switchboard',
    starts_conversations: false,
    note: 'Visitors start these; once they leave the chat, replies continue by SMS.',
  });
  return { location_id: location.id, items };
}
