/**
 * CPU time spent by this process's main thread, by its other threads (the load generator's worker, libuv's
 * pool, V8's helpers) and by the machine's PostgreSQL processes, read from /proc (Linux). On a machine whose
 * few cores the load generator, the app and the database share, it tells where each request's time went.
 */
import { readdirSync, readFileSync } from 'node:fs';

export type CpuSnapshot = { main: number; other: number; postgres: number };

/** utime + stime of one /proc stat line, in milliseconds (clock ticks are 10 ms on Linux). */
function cpuMs(statPath: string): number {
  const fields = readFileSync(statPath, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Null where /proc cannot be read (not Linux). */
export function cpuSnapshot(): CpuSnapshot | null {
  try {
    // The process's total counts threads that have ended too (a load generator that finished).
    const main = cpuMs(`/proc/self/task/${process.pid}/stat`);
    const other = cpuMs('/proc/self/stat') - main;
    let postgres = 0;
    for (const pid of readdirSync('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      try {
        if (readFileSync(`/proc/${pid}/comm`, 'utf8').startsWith('postgres'))
          postgres += cpuMs(`/proc/${pid}/stat`);
      } catch {
        // The process ended while we looked.
      }
    }
    return { main, other, postgres };
  } catch {
    return null;
  }
}

/** The CPU time between two snapshots. */
export function cpuSince(before: CpuSnapshot | null): CpuSnapshot | null {
  const now = cpuSnapshot();
  if (!before || !now) return null;
  return {
    main: now.main - before.main,
    other: now.other - before.other,
    postgres: now.postgres - before.postgres,
  };
}
