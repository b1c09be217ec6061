import { describe, expect, it } from 'vitest';
import { formatFileSize } from './file-size.ts';

const KB = 1024;
const MB = 1024 * KB;
const GB = 1024 * MB;
const TB = 1024 * GB;

describe('File sizes: "Bytes, KB, MB, GB, TB, one decimal"', () => {
  it.each([
    { bytes: 0, text: '0 Bytes' },
    { bytes: 1, text: '1 Bytes' },
    { bytes: 1023, text: '1023 Bytes' },
    { bytes: 1024, text: '1 KB' },
    { bytes: 1126, text: '1.1 KB' },
    { bytes: 1536, text: '1.5 KB' },
    { bytes: 10 * KB, text: '10 KB' },
    { bytes: 1023.94 * KB, text: '1023.9 KB' },
    { bytes: MB - 1, text: '1 MB' },
    { bytes: MB, text: '1 MB' },
    { bytes: 2.25 * MB, text: '2.3 MB' },
    { bytes: 1.5 * GB, text: '1.5 GB' },
    { bytes: TB, text: '1 TB' },
    { bytes: 1.5 * TB, text: '1.5 TB' },
    { bytes: 1024 * TB, text: '1024 TB' },
    { bytes: 5000 * TB, text: '5000 TB' },
  ])('formats $bytes bytes as $text', ({ bytes, text }) => {
    expect(formatFileSize(bytes)).toBe(text);
  });

  it.each([-1, Number.NaN, Number.POSITIVE_INFINITY])('rejects %s bytes', (bytes) => {
    expect(() => formatFileSize(bytes)).toThrow(RangeError);
  });
});
