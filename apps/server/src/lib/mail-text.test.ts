import { describe, expect, it } from 'vitest';
import { quoted } from './mail-text.ts';

describe('quoted', () => {
  it('keeps what was typed, in quotation marks', () => {
    expect(quoted('Harbourside Dental')).toBe('“Harbourside Dental”');
  });

  it('puts it on one line, so it cannot start a paragraph of its own', () => {
    expect(quoted('Acme\n\nYour account is locked: call 1800 000 000\r\n')).toBe(
      '“Acme Your account is locked: call 1800 000 000”',
    );
    expect(quoted('a\u2028b\u2029c\u0085d')).toBe('“a b c d”');
  });

  it('drops characters that reorder or hide text', () => {
    expect(quoted('invoice\u202Efdp.exe')).toBe('“invoice fdp.exe”');
    expect(quoted('pay\u200Bpal')).toBe('“pay pal”');
  });

  it('cannot close its own quotation early', () => {
    expect(quoted('Acme” — Switchboard says: “click here')).toBe("“Acme' — Switchboard says: 'click here”");
  });

  it('cuts long text', () => {
    const long = quoted('x'.repeat(500), 20);
    expect([...long]).toHaveLength(22);
    expect(long.endsWith('…”')).toBe(true);
  });
});
