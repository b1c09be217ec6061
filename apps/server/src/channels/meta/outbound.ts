import type { Attachment } from '@switchboard/shared';
import { PermanentSendError, TransientSendError } from '../../lib/provider-errors.ts';
import type { ChannelAdapter, OutboundMessage, SendResult } from '../types.ts';
import { GraphApiError, type GraphTarget, graphApi } from './graph.ts';
import { brazilianMobile } from './webhook.ts';

/** What the composer chose, stored in the message's meta as `whatsapp_template`. */
export type WhatsAppTemplateChoice = {
  name: string;
  language: string;
  variables: string[];
  /** Named templates ({{first_name}}) send each value with its name; positional ones ({{1}}) do not. */
  parameter_names?: string[];
};

async function call<T>(target: GraphTarget, path: string, body: unknown): Promise<T> {
  try {
    return await graphApi<T>(target, 'POST', path, body);
  } catch (error) {
    if (!(error instanceof GraphApiError)) throw error;
    if (error.transient) throw new TransientSendError(error.message);
    throw new PermanentSendError(error.message, error.code ?? undefined);
  }
}

function whatsappMediaType(contentType: string): 'image' | 'video' | 'audio' | 'document' {
  if (contentType === 'image/jpeg' || contentType === 'image/png') return 'image';
  if (contentType === 'video/mp4' || contentType === 'video/3gpp') return 'video';
  if (contentType.startsWith('audio/')) return 'audio';
  return 'document';
}

export function whatsappTemplateBody(to: string, messageId: string, t: WhatsAppTemplateChoice) {
  const parameters = t.variables.map((text, i) => {
    const name = t.parameter_names?.[i];
    return name ? { type: 'text', parameter_name: name, text } : { type: 'text', text };
  });
  return {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    to,
    type: 'template',
    biz_opaque_callback_data: messageId,
    template: {
      name: t.name,
      language: { code: t.language },
      ...(parameters.length ? { components: [{ type: 'body', parameters }] } : {}),
    },
  };
}

/**
 * Where a WhatsApp reply goes: the id the customer wrote from when it is still their number (a Brazilian mobile's
 * 12-digit spelling, stored as the 13-digit one), else the customer's phone.
 */
function whatsappTo(message: OutboundMessage): string | null {
  const phone = message.to.phone;
  const waId = message.thread.wa_id;
  if (phone && waId && `+${waId}` !== phone && brazilianMobile(`+${waId}`) === phone) return waId;
  return phone;
}

type WhatsAppSendResponse = { messages?: { id: string }[] };

/** WhatsApp Cloud API: text, media (by a signed link) and approved templates. */
export function createWhatsAppAdapter(deps: {
  graph: GraphTarget;
  phone_number_id: string;
  mediaUrl(attachment: Attachment): string;
}): ChannelAdapter {
  const path = `/${deps.phone_number_id}/messages`;
  return {
    provider: 'whatsapp',
    async send(message) {
      const to = whatsappTo(message);
      if (!to) throw new PermanentSendError('The customer has no WhatsApp number.');
      const base = { messaging_product: 'whatsapp', recipient_type: 'individual', to };
      const bodies: unknown[] = [];
      const template = message.meta?.whatsapp_template as WhatsAppTemplateChoice | undefined;
      if (template) {
        bodies.push(whatsappTemplateBody(to, message.id, template));
      } else {
        const single = message.attachments.length === 1 ? message.attachments[0] : undefined;
        if (message.message && !single) {
          bodies.push({
            ...base,
            type: 'text',
            text: { preview_url: false, body: message.message },
            biz_opaque_callback_data: message.id,
          });
        }
        for (const a of message.attachments) {
          const type = whatsappMediaType(a.content_type);
          const caption = single && message.message && type !== 'audio' ? { caption: message.message } : {};
          const filename = type === 'document' ? { filename: a.name } : {};
          bodies.push({
            ...base,
            type,
            [type]: { link: deps.mediaUrl(a), ...caption, ...filename },
            biz_opaque_callback_data: message.id,
          });
        }
      }
      let first: string | undefined;
      for (const body of bodies) {
        const res = await call<WhatsAppSendResponse>(deps.graph, path, body);
        first ??= res.messages?.[0]?.id;
      }
      if (!first) throw new TransientSendError('WhatsApp accepted the message without an id.');
      return { provider: 'whatsapp', provider_message_id: first };
    },
  };
}

/** Meta's customer service window: free replies within 24 hours of the customer's last message. */
const CUSTOMER_WINDOW_MS = 24 * 60 * 60 * 1000;

/** Whether a reply now is inside the window opened by the customer's last message at `last`. */
export const insideCustomerWindow = (last: Date | null, now = Date.now()) =>
  last !== null && now - last.getTime() < CUSTOMER_WINDOW_MS;

type SendApiResponse = { recipient_id?: string; message_id?: string };

/**
 * Messenger and Instagram Send API. Within 24 h of the customer's last message a reply is a RESPONSE;
 * after that Meta only allows the HUMAN_AGENT tag (7 days, for a person answering).
 */
export function createSendApiAdapter(deps: {
  provider: 'messenger' | 'instagram';
  graph: GraphTarget;
  /** `/{page_id}/messages` for Messenger; `/me/messages` (the token's own account) for Instagram. */
  path: string;
  mediaUrl(attachment: Attachment): string;
  lastInboundAt(message: OutboundMessage): Promise<Date | null>;
}): ChannelAdapter {
  const name = deps.provider === 'messenger' ? 'Messenger' : 'Instagram';
  return {
    provider: deps.provider,
    async send(message): Promise<SendResult> {
      const id = message.to.external_id;
      if (!id) {
        throw new PermanentSendError(
          `This customer has no ${name} id: they need to message the business first.`,
        );
      }
      const last = await deps.lastInboundAt(message);
      const inWindow = insideCustomerWindow(last);
      const envelope =
        deps.provider === 'messenger'
          ? inWindow
            ? { recipient: { id }, messaging_type: 'RESPONSE' }
            : { recipient: { id }, messaging_type: 'MESSAGE_TAG', tag: 'HUMAN_AGENT' }
          : inWindow
            ? { recipient: { id } }
            : { recipient: { id }, messaging_type: 'MESSAGE_TAG', tag: 'HUMAN_AGENT' };
      const parts: unknown[] = [];
      if (message.message) parts.push({ text: message.message });
      for (const a of message.attachments) {
        const kind = a.content_type.split('/')[0];
        const type = kind === 'image' || kind === 'video' || kind === 'audio' ? kind : 'file';
        if (type === 'file' && deps.provider === 'instagram') {
          // Instagram takes no documents: send the (signed, expiring) link instead.
          parts.push({ text: `${a.name}: ${deps.mediaUrl(a)}` });
        } else {
          parts.push({ attachment: { type, payload: { url: deps.mediaUrl(a), is_reusable: false } } });
        }
      }
      let first: string | undefined;
      for (const part of parts) {
        const res = await call<SendApiResponse>(deps.graph, deps.path, { ...envelope, message: part });
        first ??= res.message_id;
      }
      if (!first) throw new TransientSendError(`${name} accepted the message without an id.`);
      return { provider: deps.provider, provider_message_id: first };
    },
  };
}
