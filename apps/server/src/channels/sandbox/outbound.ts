import { randomUUID } from 'node:crypto';
import type { ChannelAdapter } from '../types.ts';

/**
 * Sandbox mode's provider: it accepts every message for the built-in simulator (where a person plays the
 * customer and reads what was sent) and reports delivery a moment later, like a real provider's callback.
 */
export function createSandboxAdapter(): ChannelAdapter {
  return {
    provider: 'sandbox',
    // Nothing leaves the server: an interrupted send reached nobody, so it is simply sent.
    reconcile: async () => null,
    async send(message) {
      if (!message.to.phone && !message.to.email && !message.to.external_id) {
        throw new Error('The customer has no address on this channel.');
      }
      return { provider: 'sandbox', provider_message_id: `sandbox-${randomUUID()}`, status: 'sent' };
    },
  };
}
