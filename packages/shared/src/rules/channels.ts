import { z } from 'zod';
import { PRODUCT_NAME } from '../constants.ts';

export const CHANNELS = [
  'instagram',
  'facebook',
  'email',
  'web_form',
  'contact_form',
  'sms',
  'mms',
  'widget',
  'google_rcs',
  'phone_call',
  'whatsapp',
] as const;

export type Channel = (typeof CHANNELS)[number];

// Pure, so a browser bundle that only needs the names and colours leaves zod out.
export const ChannelSchema = /* @__PURE__ */ z.enum(CHANNELS);

/** Channels that may still appear on older messages but can no longer be chosen. */
export type LegacyChannel = 'ebay';

export type ChannelNameOptions = { productName?: string; skipCarrier?: boolean };

// The spec does not show the colours; these follow each network's brand where it has one.
export const CHANNEL_COLOURS: Readonly<Record<Channel, string>> = {
  instagram: '#E1306C',
  facebook: '#1877F2',
  email: '#EA4335',
  web_form: '#7C3AED',
  contact_form: '#0D9488',
  sms: '#F59E0B',
  mms: '#F97316',
  widget: '#1E75FF',
  google_rcs: '#34A853',
  phone_call: '#64748B',
  whatsapp: '#25D366',
};

/**
 * A message that skipped the phone carrier was delivered inside the product, so its name says so
 * whatever channel the enquiry came in on.
 */
export function channelDisplayName(
  channel: Channel | LegacyChannel,
  options: ChannelNameOptions = {},
): string {
  if (options.skipCarrier) return `via ${options.productName ?? PRODUCT_NAME} Message`;
  switch (channel) {
    case 'sms':
    case 'widget':
      return 'SMS';
    case 'mms':
      return 'MMS';
    case 'phone_call':
      return 'Phone Call';
    case 'email':
      return 'Email';
    case 'web_form':
      return 'Web Form';
    case 'contact_form':
      return 'Contact Form';
    case 'facebook':
      return 'Facebook';
    case 'instagram':
      return 'Instagram';
    case 'google_rcs':
      return 'Google Message (RCS)';
    case 'whatsapp':
      return 'WhatsApp';
    case 'ebay':
      return 'eBay';
    default: {
      const unknown: never = channel;
      return unknown;
    }
  }
}

/**
 * What the inbox calls a conversation's channel. Spec §9 names the widget 'SMS' (a chat can go on by text
 * message), but a conversation that began in the website chat is one: staff read 'Website chat' wherever the
 * inbox names its channel, and a reply that went on by text says 'by SMS' on the message itself. Every other
 * channel keeps the spec's name.
 */
export function conversationChannelName(channel: Channel | LegacyChannel): string {
  return channel === 'widget' ? WEBSITE_CHAT : channelDisplayName(channel);
}

export const WEBSITE_CHAT = 'Website chat';

/**
 * The channels that are one conversation with the customer's phone number: their texts and their calls land
 * in the same thread on the customer's phone, so they are one enquiry per location here too. WhatsApp, RCS
 * (a business agent, a thread of its own on the phone), email, Messenger, Instagram and the website chat are
 * conversations of their own.
 */
export const PHONE_NUMBER_CHANNELS = ['sms', 'mms', 'phone_call'] as const;

export function isPhoneNumberChannel(channel: string): boolean {
  return (PHONE_NUMBER_CHANNELS as readonly string[]).includes(channel);
}

/** Which conversation a message on this channel belongs to at a location: 'phone' for the number's, else its own. */
export function threadOf(channel: string): string {
  return isPhoneNumberChannel(channel) ? 'phone' : channel;
}
