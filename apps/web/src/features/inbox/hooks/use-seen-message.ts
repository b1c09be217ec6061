import { hashKey, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import { inboxKeys } from '../api/query-keys.ts';
import type { MessagePage } from '../types.ts';
import { optimisticId } from '../utils/message-cache.ts';

type Pages = { pages: MessagePage[] };

/**
 * What the person had in front of them when they began writing: the thread's newest stored message at their
 * first keystroke (null when the thread showed none), or, when they began before the thread had loaded, the
 * newest it showed them once it did. Sent with the reply, it lets the server tell whether a teammate or the
 * assistant answered the customer in the meantime.
 */
export function useSeenMessage(enquiryId: string) {
  const queryClient = useQueryClient();
  const held = useRef<string | null | undefined>(undefined);
  /** Writing began while the thread was still loading: what it first shows is what they saw. */
  const waiting = useRef(false);

  const newest = useCallback((): string | null | undefined => {
    const data = queryClient.getQueryData<Pages>(inboxKeys.messages(enquiryId));
    if (!data) return undefined;
    const latest = data.pages[0]?.items.filter((m) => !m.id.startsWith(optimisticId(''))).at(-1);
    return latest?.id ?? null;
  }, [queryClient, enquiryId]);

  // Another conversation is another start.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the enquiry changing is what clears it.
  useEffect(() => {
    held.current = undefined;
    waiting.current = false;
  }, [enquiryId]);

  useEffect(() => {
    const key = hashKey(inboxKeys.messages(enquiryId));
    return queryClient.getQueryCache().subscribe((event) => {
      if (!waiting.current || event.query.queryHash !== key) return;
      const now = newest();
      if (now === undefined) return;
      held.current = now;
      waiting.current = false;
    });
  }, [queryClient, enquiryId, newest]);

  return {
    /** Writing began (or went on): the first call holds the thread as it is now. */
    writing: useCallback(() => {
      if (held.current !== undefined || waiting.current) return;
      held.current = newest();
      waiting.current = held.current === undefined;
    }, [newest]),
    /** What to send with the reply: what was held, else the thread as it is now. */
    take: useCallback(
      (): string | null | undefined => (held.current !== undefined ? held.current : newest()),
      [newest],
    ),
    /** The person has now seen this message (another's reply shown to them), or the reply went. */
    seen: useCallback((id: string | null | undefined) => {
      held.current = id;
      waiting.current = false;
    }, []),
  };
}
