import type { MessageDto } from '@switchboard/shared';

export const SANDBOX_CHANNELS = [
  'sms',
  'mms',
  'whatsapp',
  'facebook',
  'instagram',
  'google_rcs',
  'email',
  'web_form',
] as const;
export type SandboxChannel = (typeof SANDBOX_CHANNELS)[number];

/** How the customer is known on each channel: a phone, an email address or the network's own id. */
export type IdentityKind = 'phone' | 'email' | 'external_id';

export function identityOf(channel: SandboxChannel): IdentityKind {
  switch (channel) {
    case 'email':
    case 'web_form':
      return 'email';
    case 'facebook':
    case 'instagram':
      return 'external_id';
    case 'sms':
    case 'mms':
    case 'whatsapp':
    case 'google_rcs':
      return 'phone';
  }
}

export type SandboxInbound = {
  channel: SandboxChannel;
  location_id: string;
  from: { phone?: string; email?: string; external_id?: string; name?: string };
  message: string;
  subject?: string;
};

export type SandboxInboundResult = { enquiry_id: string; message: MessageDto };

export type MessagePage = { items: MessageDto[]; page: number; page_size: number; has_more: boolean };
