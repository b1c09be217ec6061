import { QUERY_MAX_RETRIES, QUERY_REFETCH_ON_WINDOW_FOCUS } from '@switchboard/shared';
import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { isApiError } from './api-error.ts';
import { genericNotice } from './error-catalogue.ts';
import { notify } from './notifier.ts';
import { reportError } from './report-error.ts';

/** Spec §8: retry only when the message contains 'timeout', at most 3 times. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (failureCount >= QUERY_MAX_RETRIES) return false;
  return error instanceof Error && error.message.includes('timeout');
}

/**
 * The one handler every failed query and mutation reaches (after its retries). The API client has already
 * shown its notice for most failures; what is left is a timeout that ran out of retries, or a bug in our
 * own code, and both get the generic notice.
 */
export function handleQueryError(error: unknown): void {
  if (isApiError(error)) {
    if (!error.notified && error.transport === 'timeout') notify.error(genericNotice(error.requestId));
    return;
  }
  reportError(error);
  notify.error(genericNotice(null));
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({ onError: handleQueryError }),
    mutationCache: new MutationCache({ onError: handleQueryError }),
    defaultOptions: {
      queries: { refetchOnWindowFocus: QUERY_REFETCH_ON_WINDOW_FOCUS, retry: shouldRetry },
      mutations: { retry: shouldRetry },
    },
  });
}

export const queryClient = createQueryClient();
