import {
  CommentOutlined,
  ContactsOutlined,
  FacebookFilled,
  FormOutlined,
  GoogleOutlined,
  InstagramOutlined,
  MailFilled,
  MessageOutlined,
  PhoneOutlined,
  PictureOutlined,
  WhatsAppOutlined,
} from '@ant-design/icons';
import { CHANNEL_COLOURS, type Channel, conversationChannelName } from '@switchboard/shared';
import type { ComponentType } from 'react';

const ICONS: Record<Channel, ComponentType> = {
  sms: MessageOutlined,
  mms: PictureOutlined,
  widget: CommentOutlined,
  email: MailFilled,
  whatsapp: WhatsAppOutlined,
  facebook: FacebookFilled,
  instagram: InstagramOutlined,
  google_rcs: GoogleOutlined,
  phone_call: PhoneOutlined,
  web_form: FormOutlined,
  contact_form: ContactsOutlined,
};

const FALLBACK_COLOUR = '#64748B';

function isChannel(channel: string): channel is Channel {
  return Object.hasOwn(CHANNEL_COLOURS, channel);
}

/**
 * The reply box's invitation: by the channel, except forms, whose replies go by email to the address given, and
 * the website chat, whose replies go to the chat (or on by SMS, which the composer says when it happens).
 */
export function replyPlaceholder(channel: string): string {
  if (channel === 'widget') return 'Reply in the website chat…';
  if (channel === 'web_form' || channel === 'contact_form')
    return `Reply by email (to the address on the ${channelName(channel)})…`;
  return `Reply by ${channelName(channel)}…`;
}

/**
 * Spec §9 display names, except the website chat, which the inbox calls 'Website chat' (see
 * `conversationChannelName`); a channel this build does not know yet shows as it is called.
 */
export function channelName(channel: string): string {
  if (isChannel(channel) || channel === 'ebay') return conversationChannelName(channel);
  return channel.replaceAll('_', ' ');
}

export function channelColour(channel: string): string {
  return isChannel(channel) ? CHANNEL_COLOURS[channel] : FALLBACK_COLOUR;
}

/** The channel's icon on its colour: small enough to sit beside text in a list row. */
export function ChannelMark({ channel, size = 16 }: { channel: string; size?: number }) {
  const Icon = isChannel(channel) ? ICONS[channel] : MessageOutlined;
  return (
    <span
      className="ib-channel-mark"
      aria-hidden="true"
      style={{ background: channelColour(channel), width: size, height: size, fontSize: size * 0.62 }}
    >
      <Icon />
    </span>
  );
}
