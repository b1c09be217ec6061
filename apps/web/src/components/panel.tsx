import { theme } from 'antd';
import type { CSSProperties, ReactNode } from 'react';

type Props = {
  title?: ReactNode;
  extra?: ReactNode;
  children: ReactNode;
  /** Tables run edge to edge; forms get the usual padding. */
  flush?: boolean;
  style?: CSSProperties;
  /** An anchor other pages link to (`#location-{id}`). */
  id?: string;
};

/**
 * A titled surface for a page section. antd's Card would do, but it brings Tabs along (about 10 KB
 * gzipped) for a feature these pages never use.
 */
export function Panel({ title, extra, children, flush = false, style, id }: Props) {
  const { token } = theme.useToken();
  const heading = typeof title === 'string' ? title : undefined;
  return (
    <section
      id={id}
      aria-label={heading}
      style={{
        background: token.colorBgContainer,
        border: `1px solid ${token.colorBorderSecondary}`,
        borderRadius: token.borderRadiusLG,
        boxShadow: token.boxShadowTertiary,
        ...style,
      }}
    >
      {(title || extra) && (
        <header
          style={{
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'space-between',
            gap: 16,
            minHeight: 56,
            padding: '8px 24px',
            borderBottom: `1px solid ${token.colorBorderSecondary}`,
          }}
        >
          <h2 style={{ margin: 0, fontSize: token.fontSizeLG, fontWeight: 600, color: token.colorText }}>
            {title}
          </h2>
          {extra}
        </header>
      )}
      <div style={{ padding: flush ? 0 : 24 }}>{children}</div>
    </section>
  );
}
