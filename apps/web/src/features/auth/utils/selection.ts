import type { Selection } from '@/lib/cookies.ts';
import type { Me, MeBusiness, MeLocation } from '../types.ts';

export type CurrentSelection = {
  me: Me;
  business: MeBusiness;
  location: MeLocation | null;
  /** Spec §6: the business's owner_user_id equals the user id. */
  isOwner: boolean;
  /** May change business settings, locations, phones and emails: the owner, an owner member or a super admin. */
  canManage: boolean;
};

export function currentSelection(me: Me): CurrentSelection | null {
  const business = me.businesses.find((b) => b.selected);
  if (!business) return null;
  const location = business.locations.find((l) => l.selected) ?? business.locations[0] ?? null;
  const isOwner = business.owner_user_id === me.id;
  return {
    me,
    business,
    location,
    isOwner,
    canManage: isOwner || business.role === 'owner' || me.super_admin,
  };
}

export function selectionCookies(selection: CurrentSelection): Selection {
  return {
    businessId: selection.business.id,
    locationId: selection.location?.id ?? null,
    isOwner: selection.isOwner,
  };
}
