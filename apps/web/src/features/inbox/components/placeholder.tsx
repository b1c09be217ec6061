import type { CSSProperties } from 'react';

/**
 * A grey shape with a soft shimmer where content is loading. Plain CSS rather than antd's Skeleton, which
 * the inbox would otherwise share with every page's first paint as one more small chunk.
 */
export function Placeholder({
  width,
  height = 12,
  round = false,
  style,
}: {
  width: number | string;
  height?: number;
  round?: boolean;
  style?: CSSProperties;
}) {
  return (
    <span
      className="ib-placeholder"
      aria-hidden="true"
      style={{ width, height, borderRadius: round ? '50%' : 6, ...style }}
    />
  );
}
