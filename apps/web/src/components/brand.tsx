import { PRODUCT_NAME } from '@switchboard/shared';
import { theme } from 'antd';

/** The product mark: a rounded square in the primary colour with the switchboard's three lines. */
export function BrandMark({ size = 32, inverse = false }: { size?: number; inverse?: boolean }) {
  const { token } = theme.useToken();
  // On a primary-coloured background the mark turns white with primary lines, so it stays visible.
  const fill = inverse ? '#fff' : token.colorPrimary;
  const stroke = inverse ? token.colorPrimary : '#fff';
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="8" fill={fill} />
      <path d="M9 11h14M9 16h10M9 21h6" stroke={stroke} strokeWidth="2.5" strokeLinecap="round" />
    </svg>
  );
}

export function Brand({ collapsed = false, inverse = false }: { collapsed?: boolean; inverse?: boolean }) {
  const { token } = theme.useToken();
  return (
    <span style={{ display: 'inline-flex', alignItems: 'center', gap: 10 }}>
      <BrandMark inverse={inverse} />
      {!collapsed && (
        <span
          style={{
            fontSize: 18,
            fontWeight: 600,
            letterSpacing: -0.2,
            color: inverse ? '#fff' : token.colorText,
          }}
        >
          {PRODUCT_NAME}
        </span>
      )}
    </span>
  );
}
