import { readdirSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';

const HOUR_MS = 3_600_000;

/**
 * Each run gets its own database and results under .tmp/ (about 40 MB a run). Those of runs that started
 * more than an hour ago are removed; newer ones may belong to a run still going beside this one.
 */
export default function pruneOldRuns(): void {
  const tmp = resolve(import.meta.dirname, '..', '.tmp');
  let names: string[];
  try {
    names = readdirSync(tmp);
  } catch {
    return;
  }
  const now = Date.now();
  for (const name of names) {
    const started = Number(/^e2e-(?:data|results)-(\d+)$/.exec(name)?.[1]);
    if (started && now - started > HOUR_MS) rmSync(resolve(tmp, name), { recursive: true, force: true });
  }
}
