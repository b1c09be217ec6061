import { readdirSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { startMailSink } from './fixtures/mail.ts';

const HOUR_MS = 3_600_000;

/**
 * Prunes old runs, and starts the mail sink the server sends its own email to for the length of the run
 * (the returned function stops it).
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  pruneOldRuns();
  return startMailSink();
}

/**
 * Each run gets its own database and results under .tmp/ (about 40 MB a run). Those of runs that started
 * more than an hour ago are removed; newer ones may belong to a run still going beside this one.
 */
function pruneOldRuns(): void {
  const tmp = resolve(import.meta.dirname, '..', '.tmp');
  let names: string[];
  try {
    names = readdirSync(tmp);
  } catch {
    return;
  }
  const now = Date.now();
  for (const name of names) {
    const started = Number(/^e2e-(?:data|results|mail)-(\d+)$/.exec(name)?.[1]);
    if (started && now - started > HOUR_MS) rmSync(resolve(tmp, name), { recursive: true, force: true });
  }
}
