/* Tasks that misbehave in every way an isolated worker must survive (see lib/isolated-work.test.ts). */

export const echo = (input: unknown) => input;

/** Grows the V8 heap without end: the worker's heap limit stops it. */
export function hogHeap(): number {
  const kept: string[][] = [];
  for (;;) kept.push(Array.from({ length: 100_000 }, (_, i) => `row ${i} ${kept.length}`));
}

/** Grows memory outside the V8 heap (as inflated buffers do), which only the memory watch sees. */
export async function swellBuffers(): Promise<number> {
  const kept: Buffer[] = [];
  for (;;) {
    kept.push(Buffer.alloc(32 * 1024 * 1024, 1));
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Never returns, and never yields to the event loop. */
export function spin(): number {
  let n = 0;
  while (n >= 0) n = (n + 1) % 1_000_000;
  return n;
}

export function refuse(): never {
  throw Object.assign(new Error('That file is not welcome.'), { code: 'unprocessable' });
}

export function quit(): never {
  process.exit(3);
}
