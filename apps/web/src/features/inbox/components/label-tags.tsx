import type { Label } from '@switchboard/shared';

/**
 * An enquiry's labels as small coloured tags (a label deleted meanwhile is left out). Plain elements rather
 * than antd's Tag: every list row draws them, and the inbox's first paint has a budget (DESIGN §10).
 */
export function LabelTags({ ids, labels }: { ids: readonly string[]; labels: readonly Label[] | undefined }) {
  const shown = (labels ?? []).filter((l) => ids.includes(l.id));
  if (!shown.length) return null;
  return (
    <span className="ib-labels">
      {shown.map((l) => (
        <span key={l.id} className="ib-label" style={{ borderColor: l.colour, color: l.colour }}>
          {l.name}
        </span>
      ))}
    </span>
  );
}
