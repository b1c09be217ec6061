import { describe, expect, it } from 'vitest';
import { marketingScriptFor } from './marketing.ts';

const url = 'https://analytics.example.com/tag.js';

describe('marketing scripts', () => {
  it('are off when the server names no script', () => {
    expect(marketingScriptFor({ sandbox: true, marketing_script_url: null }, '/locations')).toBeNull();
  });

  it('load on ordinary pages when configured', () => {
    expect(marketingScriptFor({ sandbox: false, marketing_script_url: url }, '/')).toBe(url);
  });

  it.each(['/widget', '/contact', '/browser-extension/login'])('are skipped on %s', (path) => {
    expect(marketingScriptFor({ sandbox: false, marketing_script_url: url }, path)).toBeNull();
  });
});
