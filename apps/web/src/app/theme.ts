import { PRIMARY_COLOR } from '@switchboard/shared';
import { type ThemeConfig, theme } from 'antd';

/**
 * The brand blue as text and as the fill behind white labels. The spec's primary colour (#1E75FF) stays the
 * theme's primary: the progress bar, focus rings, selection marks, switches and the brand. As text on white
 * it is 4.2:1 and white on it is the same, short of WCAG AA's 4.5:1 for body-size text, so words in the brand
 * colour, and words on it, use a shade of it that reaches 4.5:1: a deeper blue in light mode, a lighter
 * one on dark backgrounds (where antd already deepens solid fills to #1D66DC, 5.3:1 with white).
 */
export const BRAND_TEXT = { light: '#1765E0', dark: '#5C9DFF' } as const;
const BRAND_TEXT_HOVER = { light: '#0F4FB8', dark: '#8CBCFF' } as const;
/** Links' seed: antd's dark algorithm deepens a link seed (this one becomes #7AA3DC, 6.5:1 on dark cards). */
const LINK_SEED = { light: BRAND_TEXT.light, dark: '#8CBCFF' } as const;

/**
 * antd's tertiary text (times, hints, group titles, "Live") is 45% black or white: 3.4:1 on white, short of
 * 4.5:1. These stay a step fainter than secondary text (65%) while reaching 4.5:1 on the page and card
 * backgrounds of each mode.
 */
const TERTIARY_TEXT = { light: 'rgba(0, 0, 0, 0.58)', dark: 'rgba(255, 255, 255, 0.56)' } as const;

/**
 * antd's preset tags ("Allowed", "Current", "Opened") write their words in the colour's 7th shade on its 1st;
 * for these colours that is 2.8-3.9:1 in light mode. Their 7th shade is made the 8th, which reaches 4.5:1.
 */
const TAG_TEXT_SHADES = {
  green: '#237804',
  orange: '#ad4e00',
  gold: '#874d00',
  lime: '#3f6600',
  cyan: '#006d75',
  volcano: '#ad2102',
} as const;
/** antd names each shade two ways (`green7` and `green-7`); components read either. */
const LIGHT_TAG_TEXT = Object.fromEntries(
  Object.entries(TAG_TEXT_SHADES).flatMap(([colour, shade]) => [
    [`${colour}7`, shade],
    [`${colour}-7`, shade],
  ]),
);

/** The brand fill behind white text (buttons, the business's own message bubbles) in each mode. */
export function brandFill(dark: boolean, primary: string): string {
  return dark ? primary : BRAND_TEXT.light;
}

/** The app's antd theme: the spec's primary colour, with text colours that meet WCAG 2.1 AA contrast. */
export function appTheme(dark: boolean): ThemeConfig {
  const mode = dark ? 'dark' : 'light';
  return {
    algorithm: dark ? theme.darkAlgorithm : theme.defaultAlgorithm,
    token: {
      colorPrimary: PRIMARY_COLOR,
      colorInfo: PRIMARY_COLOR,
      borderRadius: 8,
      colorPrimaryText: BRAND_TEXT[mode],
      colorPrimaryTextHover: BRAND_TEXT_HOVER[mode],
      colorPrimaryTextActive: BRAND_TEXT[mode],
      colorLink: LINK_SEED[mode],
      colorLinkHover: BRAND_TEXT_HOVER[mode],
      colorLinkActive: BRAND_TEXT[mode],
      colorTextTertiary: TERTIARY_TEXT[mode],
      colorTextDescription: TERTIARY_TEXT[mode],
      // Placeholders name what a field is for where it has no label of its own (the filters' pickers).
      colorTextPlaceholder: TERTIARY_TEXT[mode],
      // antd's red is 3.3:1 on white as text ("Delete"), 4.35:1 on dark cards; these reach 4.5:1 and still read as danger.
      colorError: dark ? '#FF7875' : '#D9363E',
      // Words in success green ("Open", "Paid"): antd's text green on its own tint reaches 4.5:1 only deeper.
      ...(dark ? {} : { colorSuccessText: '#2E7D0B', ...LIGHT_TAG_TEXT }),
    },
    components: {
      Layout: { headerHeight: 64, headerPadding: '0 24px' },
      // White labels on the brand fill: the light mode's fill is the brand shade that reaches 4.5:1.
      ...(dark ? {} : { Button: { colorPrimary: BRAND_TEXT.light, algorithm: true } }),
      Menu: { itemSelectedColor: BRAND_TEXT[mode] },
    },
  };
}
