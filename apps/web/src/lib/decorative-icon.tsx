import AntdIcon from '@ant-design/icons/es/components/AntdIcon';
import AntdIconLight from '@ant-design/icons/es/components/AntdIconLight';
import type { AriaAttributes, ComponentProps } from 'react';
import { forwardRef } from 'react';

type IconProps = ComponentProps<typeof AntdIconLight>;

/**
 * An icon is hidden from screen readers unless it is given a name of its own: antd's icons name themselves after
 * their drawing ("check-circle"), which a screen reader reads before the words beside it ("check-circle Close").
 * The words, or the button's own aria-label, say what it does.
 */
export function decorativeByDefault<P extends IconProps>(props: P): P & AriaAttributes {
  const named = props['aria-label'] !== undefined || props['aria-labelledby'] !== undefined;
  if (named || props['aria-hidden'] !== undefined) return props;
  return { ...props, 'aria-hidden': true };
}

/**
 * Stand-ins for the two components every `@ant-design/icons` icon draws with (antd's own icons included): the
 * build resolves the icons' imports of these to here (vite.config.ts, `decorativeIcons`).
 */
export const DecorativeIconLight = forwardRef<HTMLSpanElement, IconProps>(
  function DecorativeIconLight(props, ref) {
    return <AntdIconLight {...decorativeByDefault(props)} ref={ref} />;
  },
);

export const DecorativeIcon = forwardRef<HTMLSpanElement, ComponentProps<typeof AntdIcon>>(
  function DecorativeIcon(props, ref) {
    return <AntdIcon {...decorativeByDefault(props)} ref={ref} />;
  },
);
