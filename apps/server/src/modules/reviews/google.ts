import type { GoogleLocations } from '@switchboard/shared';
import type { z } from 'zod';

/** Google's own link that opens the review form for a place. */
export const googleReviewLink = (placeId: string) =>
  `https://search.google.com/local/writereview?placeid=${encodeURIComponent(placeId)}`;

/** Sandbox mode's places: what a Business Profile account with three locations would list. */
const SANDBOX_PLACES = [
  {
    place_id: 'ChIJsandbox-harbourside-docklands',
    title: 'Harbourside Dental Docklands',
    address: '12 Harbour Esplanade, Docklands VIC 3008',
  },
  {
    place_id: 'ChIJsandbox-harbourside-richmond',
    title: 'Harbourside Dental Richmond',
    address: '200 Swan St, Richmond VIC 3121',
  },
  {
    place_id: 'ChIJsandbox-harbourside-carlton',
    title: 'Harbourside Dental Carlton',
    address: '45 Lygon St, Carlton VIC 3053',
  },
];

/**
 * `GET /business/locations/google-locations`: the Business Profile places a location can be linked to (its
 * place id gives the review link). Sandbox mode lists fixed places; a server without Google set up lists none,
 * and the owner pastes the review link instead.
 */
export function googleLocations(sandbox: boolean): z.input<typeof GoogleLocations> {
  if (!sandbox) return { source: 'none', items: [] };
  return {
    source: 'sandbox',
    items: SANDBOX_PLACES.map((p) => ({ ...p, review_link: googleReviewLink(p.place_id) })),
  };
}
