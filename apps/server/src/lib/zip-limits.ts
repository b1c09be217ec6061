import yauzl from 'yauzl';

/**
 * How much a ZIP (a Word file is one) may hold once unpacked. Declared sizes are checked from the central
 * directory before anything is inflated; then every entry is inflated and counted (the bytes are dropped), and
 * yauzl stops an entry the moment it yields more than it declared, so a lying header is caught too.
 */
export type ZipLimits = {
  maxEntries: number;
  /** The whole archive, unpacked. */
  maxTotalBytes: number;
  /** One entry whose name matches `textPart` (the XML a reader parses), unpacked. */
  maxTextPartBytes: number;
  textPart: RegExp;
  /** Any other entry, unpacked. */
  maxPartBytes: number;
  /** Unpacked to packed, for an entry past `ratioFromBytes`; ordinary XML packs 5 to 20 times. */
  maxRatio: number;
  ratioFromBytes: number;
};

export type ZipProblem =
  | { kind: 'entries'; count: number }
  | { kind: 'text_part'; name: string; bytes: number }
  | { kind: 'part'; name: string; bytes: number }
  | { kind: 'total'; bytes: number }
  | { kind: 'ratio'; name: string; ratio: number }
  | { kind: 'lying'; name: string }
  | { kind: 'damaged'; detail: string };

export class ZipLimitError extends Error {
  readonly problem: ZipProblem;
  constructor(problem: ZipProblem) {
    super(`ZIP refused: ${JSON.stringify(problem)}`);
    this.problem = problem;
  }
}

type Entry = { fileName: string; compressedSize: number; uncompressedSize: number };

function declaredProblem(entries: Entry[], limits: ZipLimits): ZipProblem | null {
  if (entries.length > limits.maxEntries) return { kind: 'entries', count: entries.length };
  let total = 0;
  for (const e of entries) {
    total += e.uncompressedSize;
    if (limits.textPart.test(e.fileName) && e.uncompressedSize > limits.maxTextPartBytes)
      return { kind: 'text_part', name: e.fileName, bytes: e.uncompressedSize };
    if (e.uncompressedSize > limits.maxPartBytes)
      return { kind: 'part', name: e.fileName, bytes: e.uncompressedSize };
    const ratio = e.uncompressedSize / Math.max(1, e.compressedSize);
    if (e.uncompressedSize > limits.ratioFromBytes && ratio > limits.maxRatio)
      return { kind: 'ratio', name: e.fileName, ratio: Math.round(ratio) };
  }
  return total > limits.maxTotalBytes ? { kind: 'total', bytes: total } : null;
}

/** Bytes an entry really inflates to; fails past what it declared (yauzl's check) or past `cap`. */
async function inflatedBytes(zip: yauzl.ZipFile, entry: yauzl.Entry, cap: number): Promise<number> {
  const stream = await zip.openReadStreamPromise(entry);
  let n = 0;
  for await (const chunk of stream) {
    n += (chunk as Buffer).length;
    if (n > cap) {
      stream.destroy();
      throw new ZipLimitError({ kind: 'lying', name: entry.fileName });
    }
  }
  return n;
}

/** Throws a `ZipLimitError` naming the first limit the archive breaks; returns when it keeps them all. */
export async function checkZip(bytes: Buffer, limits: ZipLimits): Promise<void> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.fromBufferPromise(bytes, { lazyEntries: true, autoClose: false });
  } catch (error) {
    throw new ZipLimitError({ kind: 'damaged', detail: (error as Error).message });
  }
  if (zip.entryCount > limits.maxEntries) throw new ZipLimitError({ kind: 'entries', count: zip.entryCount });
  const entries: yauzl.Entry[] = [];
  try {
    for await (const entry of zip.eachEntry()) entries.push(entry);
  } catch (error) {
    throw new ZipLimitError({ kind: 'damaged', detail: (error as Error).message });
  }
  const declared = declaredProblem(entries, limits);
  if (declared) throw new ZipLimitError(declared);
  let total = 0;
  for (const entry of entries) {
    if (entry.fileName.endsWith('/')) continue;
    try {
      total += await inflatedBytes(zip, entry, entry.uncompressedSize);
    } catch (error) {
      if (error instanceof ZipLimitError) throw error;
      const detail = (error as Error).message;
      // yauzl's own words when an entry inflates past the size it declared.
      if (/too many bytes/i.test(detail)) throw new ZipLimitError({ kind: 'lying', name: entry.fileName });
      throw new ZipLimitError({ kind: 'damaged', detail });
    }
    if (total > limits.maxTotalBytes) throw new ZipLimitError({ kind: 'total', bytes: total });
  }
  zip.close();
}
