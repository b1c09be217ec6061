import { Button } from 'antd';
import { useMatchesElsewhere } from '../api/get-matches-elsewhere.ts';
import type { EnquiryListParams } from '../types.ts';

/**
 * Under "No matching enquiries" at one location: what the same search finds at the person's other locations,
 * e.g. "No matches here — 2 at Northside", with a way to see them (the every-location view, same search).
 */
export function MatchesElsewhere({
  params,
  locationNames,
  onShowAll,
}: {
  params: EnquiryListParams;
  locationNames: ReadonlyMap<string, string> | undefined;
  onShowAll: () => void;
}) {
  const others = useMatchesElsewhere(params, (locationNames?.size ?? 0) > 1);
  const places = others.data?.places ?? [];
  const [first] = places;
  if (!first) return null;
  const where = places
    .map(
      (p) =>
        `${p.count}${others.data?.more ? '+' : ''} at ${locationNames?.get(p.locationId) ?? 'another location'}`,
    )
    .join(', ');
  return (
    // Inside the empty state's paragraph: phrasing content only.
    <span style={{ display: 'block', marginTop: 12 }}>
      <strong style={{ display: 'block', marginBottom: 8 }}>No matches here — {where}</strong>
      <Button type="primary" onClick={onShowAll}>
        {places.length === 1
          ? `Show ${first.count === 1 ? 'it' : 'them'} at ${locationNames?.get(first.locationId) ?? 'that location'}`
          : 'Show matches at all your locations'}
      </Button>
    </span>
  );
}
