/** WCAG 2.1's minimum contrast for body text (AA). */
export const AA_CONTRAST = 4.5;

const channel = (value: number) => {
  const c = value / 255;
  return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
};

const rgbOf = (hex: string): [number, number, number] => {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
};

const hexOf = ([r, g, b]: [number, number, number]) =>
  `#${[r, g, b].map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`.toUpperCase();

/** A colour's relative luminance (WCAG 2.1), from `#RRGGBB`. */
export function luminance(hex: string): number {
  const [r, g, b] = rgbOf(hex);
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

/** The contrast ratio of two `#RRGGBB` colours, 1 to 21. */
export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

const DARK_TEXT = '#111827';

/**
 * A business's chosen colour as a fill with words on it (the chat's header, the visitor's bubbles, Send) that
 * reach AA: white words when white reads at 4.5:1 on it; dark words on a light colour; otherwise the colour is
 * deepened, step by step, until white reads (#1E75FF becomes #1C6EF0), so it stays the business's colour.
 */
export function readableAccent(hex: string): { fill: string; text: string } {
  if (!/^#[0-9a-f]{6}$/i.test(hex)) return { fill: hex, text: '#FFFFFF' };
  const colour = hex.toUpperCase();
  if (contrast(colour, '#FFFFFF') >= AA_CONTRAST) return { fill: colour, text: '#FFFFFF' };
  if (contrast(colour, DARK_TEXT) >= AA_CONTRAST && luminance(colour) > 0.3)
    return { fill: colour, text: DARK_TEXT };
  let rgb = rgbOf(colour);
  for (let step = 0; step < 40 && contrast(hexOf(rgb), '#FFFFFF') < AA_CONTRAST; step++) {
    rgb = rgb.map((c) => c * 0.97) as [number, number, number];
  }
  return { fill: hexOf(rgb), text: '#FFFFFF' };
}
