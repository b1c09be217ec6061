import { AppError } from '../../errors.ts';
import { PermanentSendError, TransientSendError } from '../../lib/provider-errors.ts';
import type { RcsConfig } from '../catalogue.ts';
import type { Ownership } from '../types.ts';
import { serviceAccountToken } from './outbound.ts';

/**
 * Google is asked only whether the service account key is genuine (a token grant at GOOGLE_OAUTH_TOKEN_URL).
 * Whether that key may act as the agent cannot be asked cheaply: the RBM API's agent calls all act on a
 * customer's phone (capability checks, messages, tester invites), and reading the agent itself is the
 * Business Communications API's, which takes the partner's management key and the brand. So an RCS account
 * stays unproven: it never keeps another business off the agent, and each push goes to the account whose
 * client token signed it (only the agent's real partner knows that token).
 */
export async function rcsOwnership(
  deps: { tokenUrl: string; timeoutMs: number },
  config: RcsConfig,
): Promise<Ownership> {
  try {
    await serviceAccountToken(config.service_account_json, deps.tokenUrl, deps.timeoutMs);
  } catch (error) {
    if (error instanceof TransientSendError)
      throw new AppError(
        'service_unavailable',
        'Google is not answering right now, so the service account could not be checked. Try again in a minute.',
      );
    if (error instanceof PermanentSendError) throw new AppError('unprocessable', error.message);
    throw error;
  }
  return {
    proven: false,
    why: 'Google offers no check of which service accounts may act as an RCS agent.',
  };
}
