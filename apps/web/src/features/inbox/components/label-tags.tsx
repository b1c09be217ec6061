import type { Label } from '@switchboard/shared';
import { Tag } from 'antd';

/** An enquiry's labels as small coloured tags (a label deleted meanwhile is left out). */
export function LabelTags({ ids, labels }: { ids: readonly string[]; labels: readonly Label[] | undefined }) {
  const shown = (labels ?? []).filter((l) => ids.includes(l.id));
  if (!shown.length) return null;
  return (
    <span className="ib-labels">
      {shown.map((l) => (
        <Tag key={l.id} color={l.colour} style={{ marginInlineEnd: 4 }}>
          {l.name}
        </Tag>
      ))}
    </span>
  );
}
