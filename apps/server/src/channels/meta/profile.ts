import { type GraphTarget, graphApi } from './graph.ts';

/**
 * Messenger and Instagram webhooks name the customer only by a page-scoped id; Meta's User Profile API gives
 * their name (the customers module asks after the webhook has answered).
 */
export type ProfileProvider = 'messenger' | 'instagram';
/** The inbox channel each profile provider's customers write on (their `external_ids` key). */
export const PROFILE_CHANNEL: Record<ProfileProvider, string> = {
  messenger: 'facebook',
  instagram: 'instagram',
};

export const isProfileProvider = (provider: string): provider is ProfileProvider =>
  provider === 'messenger' || provider === 'instagram';

/** The customer's name and first name as Meta has them, or null when Meta gives none. */
export async function fetchMetaProfile(
  target: GraphTarget,
  provider: ProfileProvider,
  scopedId: string,
): Promise<{ name: string; first_name: string } | null> {
  const id = encodeURIComponent(scopedId);
  if (provider === 'messenger') {
    // https://developers.facebook.com/docs/messenger-platform/identity/user-profile
    const p = await graphApi<{ first_name?: string; last_name?: string }>(
      target,
      'GET',
      `/${id}?fields=first_name,last_name`,
    );
    const first = p.first_name?.trim() ?? '';
    const name = [first, p.last_name?.trim() ?? ''].filter(Boolean).join(' ');
    return name ? { name, first_name: first || name } : null;
  }
  // https://developers.facebook.com/docs/messenger-platform/instagram/features/user-profile
  const p = await graphApi<{ name?: string | null; username?: string | null }>(
    target,
    'GET',
    `/${id}?fields=name,username`,
  );
  const name = p.name?.trim() || (p.username?.trim() ? `@${p.username.trim()}` : '');
  return name ? { name, first_name: p.name?.trim().split(/\s+/)[0] || name } : null;
}
