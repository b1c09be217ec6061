import type { MessageDto } from '../types.ts';

/**
 * This browser's replies that the server has not stored: on their way, or not sent and waiting for Retry, by
 * client id. The thread fetched from the server knows nothing of them, so it is given them back
 * (`keepLocalMessages`), also when the send failed before the thread had loaded at all.
 */
const held = new Map<string, MessageDto>();

export function holdLocalMessage(message: MessageDto): void {
  if (message.client_id) held.set(message.client_id, message);
}

export function releaseLocalMessage(clientId: string): void {
  held.delete(clientId);
}

export function localMessagesOf(enquiryId: string): MessageDto[] {
  return [...held.values()].filter((m) => m.enquiry_id === enquiryId);
}
