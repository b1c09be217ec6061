import type { MessageStatus } from '@switchboard/shared';
import { z } from 'zod';

const Push = z.looseObject({
  message: z.looseObject({
    data: z.string().min(1),
    messageId: z.string().optional(),
    publishTime: z.string().optional(),
    attributes: z.record(z.string(), z.unknown()).optional(),
  }),
  subscription: z.string().optional(),
});

const FileInfo = z.looseObject({
  mimeType: z.string().optional(),
  fileSizeBytes: z.union([z.number(), z.string()]).optional(),
  fileName: z.string().optional(),
  fileUri: z.string().optional(),
});

const Payload = z.looseObject({
  senderPhoneNumber: z.string().optional(),
  messageId: z.string().optional(),
  eventId: z.string().optional(),
  eventType: z.string().optional(),
  sendTime: z.string().optional(),
  agentId: z.string().optional(),
  text: z.string().optional(),
  userFile: z.looseObject({ payload: FileInfo.optional(), thumbnail: FileInfo.optional() }).optional(),
  location: z.looseObject({ latitude: z.number().optional(), longitude: z.number().optional() }).optional(),
  suggestionResponse: z
    .looseObject({
      postbackData: z.string().optional(),
      text: z.string().optional(),
      type: z.string().optional(),
    })
    .optional(),
});

/** The one-time webhook validation request: answer 200 with `secret` when `clientToken` is ours. */
export const Verification = z.looseObject({ clientToken: z.string(), secret: z.string() });

export type RbmEvent =
  | {
      type: 'message';
      agent_id: string;
      id: string;
      phone: string;
      text: string;
      file?: { url: string; content_type?: string; name?: string };
      timestamp?: Date;
      meta: Record<string, unknown>;
    }
  | { type: 'status'; agent_id: string; id: string; status: MessageStatus }
  | { type: 'ignored'; agent_id: string; reason: string };

export type RbmPush = { decoded: Buffer; event: RbmEvent };

/**
 * An RBM push (Pub/Sub-style envelope, base64 `message.data` holding a UserMessage or UserEvent), decoded and
 * normalised; null when malformed. The decoded bytes are kept: the signature covers them.
 */
export function parseRbmPush(body: unknown): RbmPush | null {
  const push = Push.safeParse(body);
  if (!push.success) return null;
  const decoded = Buffer.from(push.data.message.data, 'base64');
  let json: unknown;
  try {
    json = JSON.parse(decoded.toString('utf8'));
  } catch {
    return null;
  }
  const parsed = Payload.safeParse(json);
  const agent_id = parsed.success ? parsed.data.agentId : undefined;
  if (!parsed.success || !agent_id) return null;
  const p = parsed.data;
  if (p.eventType) {
    const status: MessageStatus | null =
      p.eventType === 'DELIVERED' ? 'delivered' : p.eventType === 'READ' ? 'read' : null;
    if (!status || !p.messageId)
      return { decoded, event: { type: 'ignored', agent_id, reason: `event ${p.eventType}` } };
    return { decoded, event: { type: 'status', agent_id, id: p.messageId, status } };
  }
  if (!p.messageId || !p.senderPhoneNumber) return null;
  const meta: Record<string, unknown> = {};
  let text = p.text ?? '';
  let file: Extract<RbmEvent, { type: 'message' }>['file'];
  if (p.suggestionResponse) {
    text = p.suggestionResponse.text ?? p.suggestionResponse.postbackData ?? '';
    meta.payload = p.suggestionResponse.postbackData;
  } else if (p.location) {
    text = `📍 https://maps.google.com/?q=${p.location.latitude},${p.location.longitude}`;
  } else if (p.userFile?.payload?.fileUri) {
    const f = p.userFile.payload;
    file = { url: p.userFile.payload.fileUri, content_type: f.mimeType, name: f.fileName };
  }
  return {
    decoded,
    event: {
      type: 'message',
      agent_id,
      id: p.messageId,
      phone: p.senderPhoneNumber,
      text,
      file,
      timestamp: p.sendTime ? new Date(p.sendTime) : undefined,
      meta,
    },
  };
}
