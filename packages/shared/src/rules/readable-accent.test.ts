import { describe, expect, it } from 'vitest';
import { AA_CONTRAST, contrast, readableAccent } from './readable-accent.ts';

describe('readableAccent: words on a business colour reach WCAG AA', () => {
  it('keeps a dark enough colour with white words', () => {
    expect(readableAccent('#0a7f5a')).toEqual({ fill: '#0A7F5A', text: '#FFFFFF' });
    expect(readableAccent('#1F2937')).toEqual({ fill: '#1F2937', text: '#FFFFFF' });
  });

  it('puts dark words on a light colour', () => {
    expect(readableAccent('#FFD54F').text).toBe('#111827');
    expect(readableAccent('#A7F3D0').text).toBe('#111827');
  });

  it('deepens a mid colour (the default blue) until white reads, and only as far as needed', () => {
    const { fill, text } = readableAccent('#1E75FF');
    expect(text).toBe('#FFFFFF');
    expect(contrast(fill, text)).toBeGreaterThanOrEqual(AA_CONTRAST);
    expect(contrast(fill, text)).toBeLessThan(5);
    expect(contrast('#1E75FF', '#FFFFFF')).toBeLessThan(AA_CONTRAST);
  });

  it('reaches AA for every colour on a coarse grid', () => {
    for (let r = 0; r < 256; r += 51)
      for (let g = 0; g < 256; g += 51)
        for (let b = 0; b < 256; b += 51) {
          const hex = `#${[r, g, b].map((c) => c.toString(16).padStart(2, '0')).join('')}`;
          const { fill, text } = readableAccent(hex);
          expect(contrast(fill, text), hex).toBeGreaterThanOrEqual(AA_CONTRAST);
        }
  });
});
