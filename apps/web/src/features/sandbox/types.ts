import type { MessageDto, MessagePage } from '@switchboard/shared';

export {
  type IdentityKind,
  identityOf,
  SANDBOX_CHANNELS,
  type SandboxChannel,
  type SandboxInbound,
} from '@switchboard/shared';
export type { MessagePage };

export type SandboxInboundResult = { enquiry_id: string; message: MessageDto };
