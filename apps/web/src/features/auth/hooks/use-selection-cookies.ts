import { useEffect } from 'react';
import { selectionCookieWrites, writeCookies } from '@/lib/cookies.ts';
import { rememberSession } from '@/lib/debug-session.ts';
import type { CurrentSelection } from '../utils/selection.ts';

/**
 * Keeps BID, LID and the owner flag in step with what the server says is selected (after a switch, or a
 * reload in a tab whose cookies another tab changed), and the session id known for error reports.
 */
export function useSelectionCookies(selection: CurrentSelection | null): void {
  const businessId = selection?.business.id;
  const locationId = selection?.location?.id;
  const isOwner = selection?.isOwner;
  const userId = selection?.me.id;

  useEffect(() => {
    if (!businessId || !userId) return;
    writeCookies(
      selectionCookieWrites({ businessId, locationId: locationId ?? null, isOwner: Boolean(isOwner) }),
    );
    rememberSession(userId);
  }, [businessId, locationId, isOwner, userId]);
}
