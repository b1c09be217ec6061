import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { INVOICE_FONTS, type InvoiceFontId } from '@switchboard/shared';

const require = createRequire(import.meta.url);

/** The font packages shipped with the product (full TrueType files: Latin, Cyrillic, Greek, Vietnamese). */
const PACKAGES: Record<InvoiceFontId, { pkg: string; file: string }> = {
  'noto-sans': { pkg: '@expo-google-fonts/noto-sans', file: 'NotoSans' },
  inter: { pkg: '@expo-google-fonts/inter', file: 'Inter' },
  lora: { pkg: '@expo-google-fonts/lora', file: 'Lora' },
  merriweather: { pkg: '@expo-google-fonts/merriweather', file: 'Merriweather' },
};

export type FontWeight = 'regular' | 'bold';

export function isFontId(id: string): id is InvoiceFontId {
  return INVOICE_FONTS.some((f) => f.id === id);
}

/** Where a shipped font's TrueType file is on disk. */
export function fontPath(id: InvoiceFontId, weight: FontWeight): string {
  const { pkg, file } = PACKAGES[id];
  const root = dirname(require.resolve(`${pkg}/package.json`));
  const style = weight === 'bold' ? '700Bold' : '400Regular';
  return join(root, style, `${file}_${style}.ttf`);
}

const loaded = new Map<string, Buffer>();

/** A shipped font's bytes (read once per process). */
export function fontBytes(id: InvoiceFontId, weight: FontWeight): Buffer {
  const key = `${id}:${weight}`;
  let bytes = loaded.get(key);
  if (!bytes) {
    bytes = readFileSync(fontPath(id, weight));
    loaded.set(key, bytes);
  }
  return bytes;
}
