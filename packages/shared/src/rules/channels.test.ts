import { describe, expect, it } from 'vitest';
import {
  CHANNEL_COLOURS,
  CHANNELS,
  type Channel,
  ChannelSchema,
  channelDisplayName,
  conversationChannelName,
  isPhoneNumberChannel,
  threadOf,
} from './channels.ts';

describe('Channels: "instagram, facebook, email, web_form, contact_form, sms, mms, widget, google_rcs, phone_call, whatsapp"', () => {
  it('lists exactly the spec channels, in the spec order', () => {
    expect(CHANNELS).toEqual([
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
    ]);
  });

  it.each([
    { input: 'whatsapp', ok: true },
    { input: 'google_rcs', ok: true },
    { input: 'ebay', ok: false },
    { input: 'SMS', ok: false },
    { input: '', ok: false },
  ])('ChannelSchema accepts $input: $ok', ({ input, ok }) => {
    expect(ChannelSchema.safeParse(input).success).toBe(ok);
  });
});

describe('Channel display names', () => {
  it.each<{ channel: Channel | 'ebay'; name: string }>([
    { channel: 'sms', name: 'SMS' },
    { channel: 'widget', name: 'SMS' },
    { channel: 'mms', name: 'MMS' },
    { channel: 'phone_call', name: 'Phone Call' },
    { channel: 'email', name: 'Email' },
    { channel: 'web_form', name: 'Web Form' },
    { channel: 'contact_form', name: 'Contact Form' },
    { channel: 'facebook', name: 'Facebook' },
    { channel: 'instagram', name: 'Instagram' },
    { channel: 'google_rcs', name: 'Google Message (RCS)' },
    { channel: 'whatsapp', name: 'WhatsApp' },
    { channel: 'ebay', name: 'eBay' },
  ])("names '$channel' '$name'", ({ channel, name }) => {
    expect(channelDisplayName(channel)).toBe(name);
  });

  it.each<{ channel: Channel; productName?: string; name: string }>([
    { channel: 'sms', name: 'via Switchboard Message' },
    { channel: 'widget', name: 'via Switchboard Message' },
    { channel: 'email', name: 'via Switchboard Message' },
    { channel: 'sms', productName: 'Acme Inbox', name: 'via Acme Inbox Message' },
  ])(
    "names a $channel message that skipped the carrier 'via {product} Message': $name",
    ({ channel, productName, name }) => {
      expect(channelDisplayName(channel, { skipCarrier: true, productName })).toBe(name);
    },
  );

  it('keeps the channel name when skipCarrier is false', () => {
    expect(channelDisplayName('sms', { skipCarrier: false, productName: 'Acme Inbox' })).toBe('SMS');
  });
});

describe("The inbox's name for a conversation's channel", () => {
  it.each<{ channel: Channel | 'ebay'; name: string }>([
    { channel: 'widget', name: 'Website chat' },
    { channel: 'sms', name: 'SMS' },
    { channel: 'mms', name: 'MMS' },
    { channel: 'email', name: 'Email' },
    { channel: 'google_rcs', name: 'Google Message (RCS)' },
    { channel: 'ebay', name: 'eBay' },
  ])("calls a '$channel' conversation '$name'", ({ channel, name }) => {
    expect(conversationChannelName(channel)).toBe(name);
  });
});

describe('Channel colours', () => {
  it('gives every channel a distinct hex colour', () => {
    const colours = CHANNELS.map((channel) => CHANNEL_COLOURS[channel]);
    expect(new Set(colours).size).toBe(CHANNELS.length);
    for (const colour of colours) expect(colour).toMatch(/^#[0-9A-F]{6}$/);
  });
});

describe("The phone number's conversation", () => {
  it.each<{ channel: Channel; thread: string }>([
    { channel: 'sms', thread: 'phone' },
    { channel: 'mms', thread: 'phone' },
    { channel: 'phone_call', thread: 'phone' },
    { channel: 'google_rcs', thread: 'google_rcs' },
    { channel: 'whatsapp', thread: 'whatsapp' },
    { channel: 'email', thread: 'email' },
    { channel: 'facebook', thread: 'facebook' },
    { channel: 'widget', thread: 'widget' },
  ])('$channel is in the $thread thread', ({ channel, thread }) => {
    expect(threadOf(channel)).toBe(thread);
    expect(isPhoneNumberChannel(channel)).toBe(thread === 'phone');
  });
});
