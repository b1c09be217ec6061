import { describe, expect, it } from 'vitest';
import { badgedIcon } from './favicon-badge.ts';

describe('the unread badge on the tab icon', () => {
  it('is the plain icon with nothing unread, and carries the count otherwise', () => {
    expect(badgedIcon(0)).toBe('/favicon.svg');
    const three = decodeURIComponent(badgedIcon(3));
    expect(three).toMatch(/^data:image\/svg\+xml,<svg/);
    expect(three).toContain('>3</text>');
    expect(decodeURIComponent(badgedIcon(250))).toContain('>99+</text>');
  });
});
