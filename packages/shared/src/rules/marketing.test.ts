import { describe, expect, it } from 'vitest';
import { skipsMarketingScripts } from './marketing.ts';

describe("Marketing scripts are skipped on '/widget', '/contact' and any path containing 'extension'", () => {
  it.each([
    { pathname: '/widget', skips: true },
    { pathname: '/widget/', skips: true },
    { pathname: '/widget/42', skips: true },
    { pathname: '/contact', skips: true },
    { pathname: '/contact/acme', skips: true },
    { pathname: '/extension', skips: true },
    { pathname: '/chrome-extension/popup', skips: true },
    { pathname: '/settings/extensions', skips: true },
    { pathname: '/', skips: false },
    { pathname: '/inbox', skips: false },
    { pathname: '/widgets', skips: false },
    { pathname: '/contacts', skips: false },
    { pathname: '/settings/widget', skips: false },
    { pathname: '/Widget', skips: false },
  ])('$pathname skips marketing scripts: $skips', ({ pathname, skips }) => {
    expect(skipsMarketingScripts(pathname)).toBe(skips);
  });
});
