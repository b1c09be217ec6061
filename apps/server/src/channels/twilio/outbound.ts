import type { Attachment } from '@switchboard/shared';
import { PermanentSendError, TransientSendError } from '../../lib/provider-errors.ts';
import type { ChannelAdapter, OutboundMessage } from '../types.ts';
import { listTwilioMessages, sendTwilioMessage, TwilioApiError, type TwilioCredentials } from './api.ts';
import { OPTED_OUT_CODE, OPTED_OUT_REASON } from './errors.ts';

export type TwilioAdapterDeps = {
  credentials: TwilioCredentials;
  phone_number?: string | null;
  messaging_service_sid?: string | null;
  /** Where Twilio reports this message's status; carries our message id so an early callback still matches. */
  statusCallbackUrl(messageId: string): string;
  /** A public, signed, expiring URL Twilio fetches an attachment from. */
  mediaUrl(attachment: Attachment): string;
  /** Twilio says the customer replied STOP (error 21610): remember it so nobody sends again. */
  onOptedOut(message: OutboundMessage): Promise<void>;
};

/** How much earlier than our attempt Twilio's clock may date the message it took. */
const RECONCILE_SKEW_MS = 5 * 60_000;

/** Twilio allows up to 10 media per message. */
const MAX_MEDIA = 10;

/** Sends SMS and MMS through Twilio's Messages API. */
export function createTwilioAdapter(deps: TwilioAdapterDeps): ChannelAdapter {
  return {
    provider: 'twilio',
    key: `twilio:${deps.credentials.account_sid}`,
    async reconcile(message, since) {
      if (!message.to.phone) return null;
      const recent = await listTwilioMessages(deps.credentials, {
        to: message.to.phone,
        from: deps.messaging_service_sid ? null : deps.phone_number,
      });
      // Clocks differ a little between us and Twilio: anything created shortly before the attempt counts.
      const after = since.getTime() - RECONCILE_SKEW_MS;
      const found = recent.find(
        (m) => (m.body ?? '') === message.message && (!m.date_created || Date.parse(m.date_created) >= after),
      );
      return found ? { provider: 'twilio', provider_message_id: found.sid } : null;
    },
    async send(message) {
      if (!message.to.phone) throw new PermanentSendError('The customer has no phone number to text.');
      if (!deps.phone_number && !deps.messaging_service_sid) {
        throw new PermanentSendError(
          "This location's Twilio account has no phone number. Buy or add one in channel settings.",
        );
      }
      if (message.attachments.length > MAX_MEDIA) {
        throw new PermanentSendError(`An MMS can carry at most ${MAX_MEDIA} attachments.`);
      }
      try {
        const sent = await sendTwilioMessage(deps.credentials, {
          to: message.to.phone,
          from: deps.phone_number,
          messaging_service_sid: deps.messaging_service_sid,
          body: message.message,
          media_urls: message.attachments.map(deps.mediaUrl),
          status_callback: deps.statusCallbackUrl(message.id),
        });
        return { provider: 'twilio', provider_message_id: sent.sid };
      } catch (error) {
        if (!(error instanceof TwilioApiError)) throw error;
        const failure = error;
        if (failure.code === OPTED_OUT_CODE) {
          await deps.onOptedOut(message);
          throw new PermanentSendError(OPTED_OUT_REASON, OPTED_OUT_CODE);
        }
        if (failure.transient) {
          throw new TransientSendError(failure.message, {
            rateLimited: failure.rateLimited,
            retryAfterSeconds: failure.retryAfterSeconds,
          });
        }
        throw new PermanentSendError(failure.message, failure.code ?? undefined);
      }
    },
  };
}
