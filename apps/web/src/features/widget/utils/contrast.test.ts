import { describe, expect, it } from 'vitest';
import { contrastWithWhite, MIN_CONTRAST } from './contrast.ts';

describe('white text on the widget colour', () => {
  it.each([
    ['#FFFFFF', 1],
    ['#000000', 21],
    ['#777777', 4.48],
    ['#1E75FF', 4.16],
  ])('%s has a contrast of %s:1', (hex, ratio) => {
    expect(contrastWithWhite(hex)).toBeCloseTo(ratio, 1);
  });

  it('passes the default colour and a dark green, fails yellow and light grey', () => {
    expect(contrastWithWhite('#1E75FF')).toBeGreaterThanOrEqual(MIN_CONTRAST);
    expect(contrastWithWhite('#0a7f5a')).toBeGreaterThanOrEqual(MIN_CONTRAST);
    expect(contrastWithWhite('#FFD60A')).toBeLessThan(MIN_CONTRAST);
    expect(contrastWithWhite('#CCCCCC')).toBeLessThan(MIN_CONTRAST);
  });
});
