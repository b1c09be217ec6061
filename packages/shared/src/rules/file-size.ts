export const FILE_SIZE_UNITS = ['Bytes', 'KB', 'MB', 'GB', 'TB'] as const;

const BASE = 1024;

function roundToTenth(value: number): number {
  return Math.round(value * 10) / 10;
}

/**
 * Bytes, KB, MB, GB or TB (base 1024) with one decimal, dropping a trailing '.0' ('1 KB', not
 * '1.0 KB'). A value that rounds up to 1024 moves to the next unit ('1 MB', not '1024 KB'); TB is the
 * largest unit. Throws RangeError for negative or non-finite sizes.
 */
export function formatFileSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) throw new RangeError(`Invalid file size: ${bytes}`);
  let unit = 0;
  let value = bytes;
  while (roundToTenth(value) >= BASE && unit < FILE_SIZE_UNITS.length - 1) {
    value /= BASE;
    unit += 1;
  }
  return `${roundToTenth(value)} ${FILE_SIZE_UNITS[unit]}`;
}
