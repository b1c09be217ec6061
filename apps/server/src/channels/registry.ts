import type { Config } from '../config.ts';
import { createSandboxAdapter } from './sandbox/outbound.ts';
import { type ChannelAdapter, PermanentSendError } from './types.ts';

export type AdapterRegistry = { forChannel(channel: string, locationId: string): Promise<ChannelAdapter> };

/** Picks the adapter that sends on a channel for a location: the sandbox in sandbox mode. */
export function createAdapterRegistry(config: Config): AdapterRegistry {
  const sandbox = createSandboxAdapter();
  return {
    async forChannel(channel) {
      if (config.sandbox) return sandbox;
      throw new PermanentSendError(`No ${channel} account is connected for this location.`);
    },
  };
}
