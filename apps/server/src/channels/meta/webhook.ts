import type { MessageStatus } from '@switchboard/shared';
import { z } from 'zod';
import { explainMetaError } from './errors.ts';

export type MetaProvider = 'whatsapp' | 'messenger' | 'instagram';

export const CHANNEL_OF: Record<MetaProvider, string> = {
  whatsapp: 'whatsapp',
  messenger: 'facebook',
  instagram: 'instagram',
};

/** Media in an inbound message: a WhatsApp media id (fetched through the Graph API) or a direct URL. */
export type MetaMedia = {
  media_id?: string;
  url?: string;
  content_type?: string;
  filename?: string;
};

type Base = { provider: MetaProvider; address: string };

export type MetaEvent =
  | (Base & {
      type: 'message';
      id: string;
      from: { phone?: string; name?: string; external_id?: string };
      text: string;
      media: MetaMedia[];
      timestamp?: Date;
      meta: Record<string, unknown>;
    })
  | (Base & {
      type: 'status';
      id: string;
      status: MessageStatus;
      error: string | null;
      /** biz_opaque_callback_data: our message id, echoed back by WhatsApp. */
      callback_data?: string;
    })
  /** Messenger reports delivery/read up to a time for the whole conversation. */
  | (Base & { type: 'watermark'; external_id: string; status: 'delivered' | 'read'; watermark: Date })
  /** The customer unsent (deleted) a message they had sent: `id` is its mid. */
  | (Base & { type: 'unsent'; id: string })
  | (Base & { type: 'ignored'; reason: string });

const str = z.string();
const Contact = z.looseObject({
  wa_id: str.optional(),
  user_id: str.optional(),
  profile: z.looseObject({ name: str.optional() }).optional(),
});
const WaMediaObject = z.looseObject({
  id: str.optional(),
  url: str.optional(),
  mime_type: str.optional(),
  caption: str.optional(),
  filename: str.optional(),
});
const WaMessage = z.looseObject({
  from: str.optional(),
  id: str,
  timestamp: str.optional(),
  type: str,
  text: z.looseObject({ body: str }).optional(),
  image: WaMediaObject.optional(),
  video: WaMediaObject.optional(),
  audio: WaMediaObject.optional(),
  document: WaMediaObject.optional(),
  sticker: WaMediaObject.optional(),
  location: z
    .looseObject({
      latitude: z.number().optional(),
      longitude: z.number().optional(),
      name: str.optional(),
      address: str.optional(),
    })
    .optional(),
  contacts: z
    .array(
      z.looseObject({
        name: z.looseObject({ formatted_name: str.optional() }).optional(),
        phones: z.array(z.looseObject({ phone: str.optional() })).optional(),
      }),
    )
    .optional(),
  interactive: z
    .looseObject({
      button_reply: z.looseObject({ id: str.optional(), title: str.optional() }).optional(),
      list_reply: z
        .looseObject({ id: str.optional(), title: str.optional(), description: str.optional() })
        .optional(),
    })
    .optional(),
  button: z.looseObject({ text: str.optional(), payload: str.optional() }).optional(),
  reaction: z.looseObject({ message_id: str.optional(), emoji: str.optional() }).optional(),
  context: z.looseObject({ id: str.optional() }).optional(),
  referral: z.looseObject({}).optional(),
  system: z.looseObject({ body: str.optional() }).optional(),
});
const WaStatus = z.looseObject({
  id: str,
  status: str,
  timestamp: str.optional(),
  recipient_id: str.optional(),
  biz_opaque_callback_data: str.optional(),
  errors: z
    .array(
      z.looseObject({
        code: z.union([z.number(), str]).optional(),
        title: str.optional(),
        message: str.optional(),
        error_data: z.looseObject({ details: str.optional() }).optional(),
      }),
    )
    .optional(),
});
const WaChange = z.looseObject({
  field: str,
  value: z.looseObject({
    metadata: z.looseObject({ phone_number_id: str, display_phone_number: str.optional() }).optional(),
    contacts: z.array(Contact).optional(),
    messages: z.array(WaMessage).optional(),
    statuses: z.array(WaStatus).optional(),
  }),
});
const Attachment = z.looseObject({
  type: str,
  payload: z
    .looseObject({ url: str.optional(), title: str.optional(), sticker_id: z.unknown().optional() })
    .nullish(),
});
const Messaging = z.looseObject({
  sender: z.looseObject({ id: str }),
  recipient: z.looseObject({ id: str }),
  timestamp: z.number().optional(),
  message: z
    .looseObject({
      mid: str,
      text: str.optional(),
      attachments: z.array(Attachment).optional(),
      is_echo: z.boolean().optional(),
      is_deleted: z.boolean().optional(),
      is_unsupported: z.boolean().optional(),
      quick_reply: z.looseObject({ payload: str.optional() }).optional(),
      reply_to: z
        .looseObject({
          mid: str.optional(),
          story: z.looseObject({ url: str.optional(), id: str.optional() }).optional(),
        })
        .optional(),
    })
    .optional(),
  delivery: z.looseObject({ mids: z.array(str).optional(), watermark: z.number().optional() }).optional(),
  read: z.looseObject({ mid: str.optional(), watermark: z.number().optional() }).optional(),
  postback: z.looseObject({ mid: str.optional(), title: str.optional(), payload: str.optional() }).optional(),
});
const Envelope = z.looseObject({
  object: str,
  entry: z.array(
    z.looseObject({
      id: z.union([str, z.number()]).optional(),
      time: z.number().optional(),
      changes: z.array(z.unknown()).optional(),
      messaging: z.array(z.unknown()).optional(),
      /** Handover Protocol: messages delivered while another app holds the thread. */
      standby: z.array(z.unknown()).optional(),
    }),
  ),
});

const MEDIA_TYPES = ['image', 'video', 'audio', 'document', 'sticker'] as const;

function waStatus(status: string): MessageStatus | null {
  switch (status) {
    case 'sent':
      return 'sent';
    case 'delivered':
      return 'delivered';
    case 'read':
    case 'played':
      return 'read';
    case 'failed':
      return 'failed';
    default:
      return null;
  }
}

/**
 * A Brazilian mobile in its 13-digit form. Mobiles gained a ninth digit (+55 AA 9XXXX-XXXX), but WhatsApp still
 * names many users by the 12-digit form (55 AA XXXX-XXXX, the local number starting 6-9; 2-5 are landlines): the
 * inbox keeps one spelling so a customer's texts and WhatsApp messages meet in one customer.
 */
export function brazilianMobile(phone: string): string {
  const m = /^\+55([1-9][1-9])([6-9]\d{7})$/.exec(phone);
  return m ? `+55${m[1]}9${m[2]}` : phone;
}

function whatsappMessage(
  address: string,
  m: z.infer<typeof WaMessage>,
  contacts: z.infer<typeof Contact>[],
): MetaEvent {
  const contact = contacts.find((c) => c.wa_id && c.wa_id === m.from) ?? contacts[0];
  const from = m.from
    ? { phone: brazilianMobile(`+${m.from.replace(/^\+/, '')}`), name: contact?.profile?.name }
    : { external_id: contact?.user_id, name: contact?.profile?.name };
  const meta: Record<string, unknown> = { wa_type: m.type };
  // The number WhatsApp knows the customer by: replies are sent to it (see createWhatsAppAdapter).
  if (m.from) meta.wa_id = m.from.replace(/^\+/, '');
  if (m.context?.id) meta.reply_to = m.context.id;
  if (m.referral) meta.referral = m.referral;
  const media: MetaMedia[] = [];
  let text = '';
  switch (m.type) {
    case 'text':
      text = m.text?.body ?? '';
      break;
    case 'location': {
      const l = m.location ?? {};
      const place = [l.name, l.address].filter(Boolean).join(', ');
      text = `📍 ${place ? `${place} ` : ''}https://maps.google.com/?q=${l.latitude},${l.longitude}`;
      break;
    }
    case 'contacts':
      text = (m.contacts ?? [])
        .map(
          (c) =>
            `👤 ${[c.name?.formatted_name, ...(c.phones ?? []).map((p) => p.phone)].filter(Boolean).join(' ')}`,
        )
        .join('\n');
      break;
    case 'interactive': {
      const reply = m.interactive?.button_reply ?? m.interactive?.list_reply;
      text = reply?.title ?? '';
      if (reply?.id) meta.reply_id = reply.id;
      break;
    }
    case 'button':
      text = m.button?.text ?? '';
      if (m.button?.payload) meta.payload = m.button.payload;
      break;
    case 'system':
      text = m.system?.body ?? '';
      break;
    default: {
      const kind = MEDIA_TYPES.find((t) => t === m.type);
      const object = kind ? m[kind] : undefined;
      if (object) {
        text = object.caption ?? '';
        media.push({
          media_id: object.id,
          url: object.url,
          content_type: object.mime_type,
          filename: object.filename,
        });
      } else {
        text = `(A WhatsApp message of a type the inbox cannot show: ${m.type}.)`;
      }
    }
  }
  return {
    type: 'message',
    provider: 'whatsapp',
    address,
    id: m.id,
    from,
    text,
    media,
    timestamp: m.timestamp ? new Date(Number(m.timestamp) * 1000) : undefined,
    meta,
  };
}

function whatsappEvents(entry: z.infer<typeof Envelope>['entry'][number]): MetaEvent[] | null {
  const events: MetaEvent[] = [];
  for (const raw of entry.changes ?? []) {
    const change = WaChange.safeParse(raw);
    if (!change.success) return null;
    const { field, value } = change.data;
    const address = value.metadata?.phone_number_id;
    if (field !== 'messages' || !address) {
      events.push({
        type: 'ignored',
        provider: 'whatsapp',
        address: address ?? '',
        reason: `field ${field}`,
      });
      continue;
    }
    for (const m of value.messages ?? []) {
      if (m.type === 'reaction') {
        events.push({ type: 'ignored', provider: 'whatsapp', address, reason: `message type ${m.type}` });
        continue;
      }
      events.push(whatsappMessage(address, m, value.contacts ?? []));
    }
    for (const s of value.statuses ?? []) {
      const status = waStatus(s.status);
      if (!status) {
        events.push({ type: 'ignored', provider: 'whatsapp', address, reason: `status ${s.status}` });
        continue;
      }
      const e = s.errors?.[0];
      events.push({
        type: 'status',
        provider: 'whatsapp',
        address,
        id: s.id,
        status,
        error:
          status === 'failed'
            ? explainMetaError(e?.code, null, e?.error_data?.details ?? e?.message ?? e?.title)
            : null,
        callback_data: s.biz_opaque_callback_data,
      });
    }
  }
  return events;
}

/** The Instagram story a customer replied to or mentioned the business in. */
export type MetaStory = { kind: 'reply' | 'mention'; url?: string; id?: string };

/** Story links are signed CDN URLs shown to staff: only https ones are kept. */
function storyOf(kind: MetaStory['kind'], url: string | undefined, id?: string): MetaStory {
  const story: MetaStory = { kind };
  if (url && /^https:\/\//i.test(url) && URL.canParse(url)) story.url = url;
  if (id) story.id = id;
  return story;
}

const DIRECT_MEDIA = new Set(['image', 'video', 'audio', 'file', 'sticker']);

function messagingEvents(
  provider: 'messenger' | 'instagram',
  entryId: string,
  raw: unknown,
): MetaEvent[] | null {
  const parsed = Messaging.safeParse(raw);
  if (!parsed.success) return null;
  const e = parsed.data;
  // Incoming: recipient is our Page / IG account. Echoes of our own messages swap the two.
  const address = entryId || e.recipient.id;
  const base = { provider, address };
  const timestamp = e.timestamp ? new Date(e.timestamp) : undefined;
  const events: MetaEvent[] = [];
  if (e.message) {
    const m = e.message;
    if (m.is_echo) return [{ ...base, type: 'ignored', reason: 'echo of a message the business sent' }];
    if (m.is_deleted) return [{ ...base, type: 'unsent', id: m.mid }];
    const media: MetaMedia[] = [];
    const links: string[] = [];
    const seen = new Set<string>();
    let story: MetaStory | undefined = m.reply_to?.story
      ? storyOf('reply', m.reply_to.story.url, m.reply_to.story.id)
      : undefined;
    for (const a of m.attachments ?? []) {
      const url = a.payload?.url;
      if (a.type === 'story_mention') {
        story = storyOf('mention', url);
        continue;
      }
      if (!url || seen.has(url)) continue;
      seen.add(url);
      if (DIRECT_MEDIA.has(a.type))
        media.push({ url, content_type: a.type === 'sticker' ? 'image/png' : undefined });
      else links.push(a.payload?.title ? `${a.payload.title}: ${url}` : url);
    }
    const meta: Record<string, unknown> = {};
    if (m.reply_to?.mid) meta.reply_to = m.reply_to.mid;
    if (m.quick_reply?.payload) meta.payload = m.quick_reply.payload;
    if (story) meta.story = story;
    const text =
      [m.text, ...links].filter(Boolean).join('\n') ||
      (m.is_unsupported ? '(A message the inbox cannot show.)' : '');
    events.push({
      ...base,
      type: 'message',
      id: m.mid,
      from: { external_id: e.sender.id },
      text,
      media,
      timestamp,
      meta,
    });
  } else if (e.postback) {
    const id = e.postback.mid ?? `postback-${e.sender.id}-${e.timestamp ?? 0}`;
    events.push({
      ...base,
      type: 'message',
      id,
      from: { external_id: e.sender.id },
      text: e.postback.title ?? e.postback.payload ?? '',
      media: [],
      timestamp,
      meta: { payload: e.postback.payload },
    });
  }
  if (e.delivery) {
    for (const mid of e.delivery.mids ?? [])
      events.push({ ...base, type: 'status', id: mid, status: 'delivered', error: null });
    if (!e.delivery.mids?.length && e.delivery.watermark) {
      events.push({
        ...base,
        type: 'watermark',
        external_id: e.sender.id,
        status: 'delivered',
        watermark: new Date(e.delivery.watermark),
      });
    }
  }
  if (e.read) {
    if (e.read.mid) events.push({ ...base, type: 'status', id: e.read.mid, status: 'read', error: null });
    else if (e.read.watermark) {
      events.push({
        ...base,
        type: 'watermark',
        external_id: e.sender.id,
        status: 'read',
        watermark: new Date(e.read.watermark),
      });
    }
  }
  if (events.length === 0) events.push({ ...base, type: 'ignored', reason: 'event kind not handled' });
  return events;
}

/**
 * A Meta webhook body (WhatsApp `whatsapp_business_account`, Messenger `page`, Instagram `instagram`)
 * normalised into events, each naming the account address it belongs to; null when it is malformed.
 */
export function parseMetaWebhook(body: unknown): { object: string; events: MetaEvent[] } | null {
  const envelope = Envelope.safeParse(body);
  if (!envelope.success) return null;
  const { object, entry } = envelope.data;
  const events: MetaEvent[] = [];
  for (const en of entry) {
    if (object === 'whatsapp_business_account') {
      const found = whatsappEvents(en);
      if (!found) return null;
      events.push(...found);
    } else if (object === 'page' || object === 'instagram') {
      const provider = object === 'page' ? 'messenger' : 'instagram';
      // Standby messages are the customer's all the same: stored like any other.
      for (const raw of [...(en.messaging ?? []), ...(en.standby ?? [])]) {
        const found = messagingEvents(provider, en.id === undefined ? '' : String(en.id), raw);
        if (!found) return null;
        events.push(...found);
      }
    }
  }
  return { object, events };
}
