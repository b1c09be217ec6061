import { RobotOutlined, ThunderboltOutlined, UserOutlined } from '@ant-design/icons';
import { initials } from '../utils/format.ts';

// Deep enough for white initials in light and dark themes alike: each at least 4.5:1 with white (WCAG AA), as
// the initials are seen even though screen readers skip them.
const PALETTE = [
  '#2563EB',
  '#047857',
  '#B45309',
  '#DC2626',
  '#7C3AED',
  '#BE185D',
  '#0F766E',
  '#4F46E5',
  '#C2410C',
  '#0369A1',
];

function colourFor(seed: string): string {
  let hash = 0;
  for (const ch of seed) hash = (hash * 31 + (ch.codePointAt(0) ?? 0)) | 0;
  return PALETTE[Math.abs(hash) % PALETTE.length] ?? '#64748B';
}

/**
 * Initials on a colour that stays the same for the same person. Someone known only by a number or address
 * gets a person icon rather than digits.
 */
export function PersonAvatar({
  name,
  seed,
  size = 36,
  src,
}: {
  name: string | null;
  seed: string;
  size?: number;
  src?: string | null;
}) {
  const style = { width: size, height: size, fontSize: size * 0.38, background: colourFor(seed) };
  if (src) {
    return (
      <img
        className="ib-avatar"
        src={src}
        alt=""
        width={size}
        height={size}
        style={{ ...style, objectFit: 'cover' }}
      />
    );
  }
  return (
    <span className="ib-avatar" aria-hidden="true" style={style}>
      {name?.trim() ? initials(name) : <UserOutlined />}
    </span>
  );
}

/**
 * What the product sent by itself: the assistant's replies carry the assistant's robot, other automatic
 * texts (after a missed call, say) a neutral mark, so neither reads as a teammate called "T".
 */
export function AutomaticAvatar({ kind, size = 36 }: { kind: 'assistant' | 'automatic'; size?: number }) {
  const style = {
    width: size,
    height: size,
    fontSize: size * 0.5,
    background: kind === 'assistant' ? '#4F46E5' : '#475569',
  };
  return (
    <span className="ib-avatar" aria-hidden="true" data-kind={kind} style={style}>
      {kind === 'assistant' ? <RobotOutlined /> : <ThunderboltOutlined />}
    </span>
  );
}
