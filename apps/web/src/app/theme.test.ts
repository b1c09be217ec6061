import { FastColor } from '@ant-design/fast-color';
import { PRIMARY_COLOR } from '@switchboard/shared';
import { theme } from 'antd';
import { describe, expect, it } from 'vitest';
import { appTheme } from './theme.ts';

/** WCAG 2.1's contrast ratio of a (possibly translucent) text colour on an opaque background. */
function contrast(text: string, background: string): number {
  const fg = new FastColor(text).onBackground(background).getLuminance();
  const bg = new FastColor(background).getLuminance();
  return (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
}

describe.each([
  ['light', false],
  ['dark', true],
])('the %s theme', (_mode, dark) => {
  const config = appTheme(dark);
  const token = theme.getDesignToken(config);
  const button = theme.getDesignToken({
    ...config,
    token: { ...config.token, ...config.components?.Button },
  });
  const backgrounds = {
    page: token.colorBgLayout,
    card: token.colorBgContainer,
    popover: token.colorBgElevated,
  };

  it('keeps the spec’s primary colour as the brand colour', () => {
    expect(config.token?.colorPrimary).toBe(PRIMARY_COLOR);
  });

  it.each([
    ['body text', token.colorText],
    ['secondary text', token.colorTextSecondary],
    ['tertiary text (times, hints, "Live")', token.colorTextTertiary],
    ['descriptions', token.colorTextDescription],
    ['links', token.colorLink],
    ['text in the brand colour', token.colorPrimaryText],
  ])('%s reaches 4.5:1 on every background', (_what, colour) => {
    for (const [where, background] of Object.entries(backgrounds))
      expect(contrast(colour, background), where).toBeGreaterThanOrEqual(4.5);
  });

  it('the selected menu item reads at 4.5:1 on its highlight', () => {
    const selected = config.components?.Menu?.itemSelectedColor ?? token.colorPrimary;
    expect(contrast(selected, token.colorPrimaryBg)).toBeGreaterThanOrEqual(4.5);
  });

  it('words in success green and in red reach 4.5:1 (the "Open" pill, "Delete")', () => {
    expect(contrast(token.colorSuccessText, token.colorSuccessBg)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(token.colorError, token.colorBgContainer)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(token.colorTextPlaceholder, token.colorBgContainer)).toBeGreaterThanOrEqual(4.5);
  });

  it('white labels on primary buttons reach 4.5:1', () => {
    expect(contrast('#ffffff', button.colorPrimary)).toBeGreaterThanOrEqual(4.5);
  });
});
