import { mkdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * The lock that lets one process at a time open an embedded data directory (two processes on one PGlite
 * directory silently lose writes).
 *
 * The lock is the directory `.switchboard.lock` (mkdir is atomic: one creator wins) holding `owner.json`,
 * written whole through a rename. A lock whose owner process has gone is taken over at once, so a restart
 * after `kill -9` is not refused; on Linux the owner is named by pid *and* start time, so a pid the system
 * has since given to another process does not keep the lock alive.
 */

export class DataDirLockedError extends Error {
  constructor(dir: string) {
    super(
      `The data directory ${dir} is already in use by another Switchboard process. ` +
        'Stop that process first, or start this one with a different DATA_DIR.',
    );
  }
}

export type DataDirLock = {
  /** Removes the lock if this process still holds it. */
  release(): void;
};

type Owner = {
  pid: number;
  /** Start time of the process in clock ticks since boot (field 22 of /proc/<pid>/stat); null without /proc. */
  start: number | null;
  boot_id: string | null;
  hostname: string;
  created_at: string;
};

type LockState = 'held' | 'stale' | 'free';

type LockPaths = { dir: string; lock: string; owner: string; takeover: string };

/** A lock with no readable owner may be one whose creator is between mkdir and writing the owner. */
const UNWRITTEN_OWNER_GRACE_MS = 5_000;
/** A takeover takes milliseconds; a takeover mutex this old was left by a process that died holding it. */
const TAKEOVER_STALE_MS = 5_000;
/**
 * Another machine's processes cannot be looked up (a shared network directory, or a container recreated
 * with a new host name): its lock counts as held while its holder keeps touching the owner file.
 */
const FOREIGN_STALE_MS = 30_000;
const REFRESH_MS = 5_000;
const ACQUIRE_TIMEOUT_MS = 10_000;

export async function acquireDataDirLock(dir: string): Promise<DataDirLock> {
  const paths: LockPaths = {
    dir,
    lock: join(dir, '.switchboard.lock'),
    owner: join(dir, '.switchboard.lock', 'owner.json'),
    takeover: join(dir, '.switchboard.lock.takeover'),
  };
  const deadline = Date.now() + ACQUIRE_TIMEOUT_MS;
  for (;;) {
    const created = tryCreate(paths);
    if (created !== null) return hold(paths, created);
    if (inspect(paths) === 'held') throw new DataDirLockedError(dir);
    if (tryTakeMutex(paths.takeover)) {
      let taken: string | null;
      try {
        taken = takeOver(paths);
      } finally {
        rmSync(paths.takeover, { recursive: true, force: true });
      }
      if (taken !== null) return hold(paths, taken);
      continue;
    }
    // Another process is taking the lock over: once it has, its lock will be found held.
    if (Date.now() > deadline) throw new DataDirLockedError(dir);
    await sleep(20);
  }
}

/** Creates the lock and returns the owner text written, or null when the lock already exists. */
function tryCreate(paths: LockPaths): string | null {
  try {
    mkdirSync(paths.lock);
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return null;
    throw error;
  }
  try {
    const text = JSON.stringify(describeSelf());
    const temp = `${paths.owner}.${process.pid}.tmp`;
    writeFileSync(temp, text);
    renameSync(temp, paths.owner);
    return text;
  } catch (error) {
    rmSync(paths.lock, { recursive: true, force: true });
    throw error;
  }
}

/** Run while holding the takeover mutex, so no other process removes the lock this one is about to create. */
function takeOver(paths: LockPaths): string | null {
  // Look again: between the first look and the mutex another process may have taken the lock over.
  const state = inspect(paths);
  switch (state) {
    case 'held':
      throw new DataDirLockedError(paths.dir);
    case 'stale':
      rmSync(paths.lock, { recursive: true, force: true });
      return tryCreate(paths);
    case 'free':
      return tryCreate(paths);
    default: {
      const unreachable: never = state;
      throw new Error(`Unknown lock state ${unreachable}`);
    }
  }
}

function tryTakeMutex(path: string): boolean {
  try {
    mkdirSync(path);
    return true;
  } catch (error) {
    if (errorCode(error) !== 'EEXIST') throw error;
  }
  const modified = mtimeMs(path);
  if (modified !== null && Date.now() - modified > TAKEOVER_STALE_MS) {
    rmSync(path, { recursive: true, force: true });
  }
  return false;
}

function inspect(paths: LockPaths): LockState {
  const owner = parseOwner(readIfPresent(paths.owner));
  if (owner === null) {
    const created = mtimeMs(paths.lock);
    if (created === null) return 'free';
    const touched = Math.max(created, mtimeMs(paths.owner) ?? 0);
    return Date.now() - touched < UNWRITTEN_OWNER_GRACE_MS ? 'held' : 'stale';
  }
  return isRunning(owner, mtimeMs(paths.owner) ?? 0) ? 'held' : 'stale';
}

function isRunning(owner: Owner, touchedAt: number): boolean {
  if (owner.hostname !== hostname()) return Date.now() - touchedAt < FOREIGN_STALE_MS;
  const bootId = readBootId();
  if (owner.boot_id !== null && bootId !== null && owner.boot_id !== bootId) return false;
  if (!pidExists(owner.pid)) return false;
  const stat = readProcStat(owner.pid);
  // Without /proc (macOS, Windows) the pid being in use is all there is to go on.
  if (stat === null) return true;
  // A zombie has exited; only its parent has yet to collect its status.
  if (stat.state === 'Z' || stat.state === 'X') return false;
  return owner.start === null || owner.start === stat.start;
}

function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return errorCode(error) === 'EPERM';
  }
}

function hold(paths: LockPaths, text: string): DataDirLock {
  const refresh = setInterval(() => {
    try {
      const now = new Date();
      utimesSync(paths.owner, now, now);
    } catch {
      // The directory may be gone (a removed test directory); the next look at the lock judges it anyway.
    }
  }, REFRESH_MS);
  refresh.unref();
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      clearInterval(refresh);
      if (readIfPresent(paths.owner) === text) rmSync(paths.lock, { recursive: true, force: true });
    },
  };
}

function describeSelf(): Owner {
  return {
    pid: process.pid,
    start: readProcStat(process.pid)?.start ?? null,
    boot_id: readBootId(),
    hostname: hostname(),
    created_at: new Date().toISOString(),
  };
}

function parseOwner(text: string | null): Owner | null {
  if (text === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const owner = value as Partial<Owner>;
  // A pid of 0 or below would make process.kill address a whole process group.
  if (!Number.isSafeInteger(owner.pid) || (owner.pid as number) <= 0) return null;
  if (typeof owner.hostname !== 'string') return null;
  if (owner.start !== null && !Number.isSafeInteger(owner.start)) return null;
  if (owner.boot_id !== null && typeof owner.boot_id !== 'string') return null;
  return owner as Owner;
}

function readProcStat(pid: number): { state: string; start: number } | null {
  const text = readIfPresent(`/proc/${pid}/stat`);
  if (text === null) return null;
  // Field 2, the command name, is in parentheses and may itself hold spaces and parentheses.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const state = fields[0];
  const start = Number(fields[19]);
  if (state === undefined || !Number.isSafeInteger(start)) return null;
  return { state, start };
}

function readBootId(): string | null {
  return readIfPresent('/proc/sys/kernel/random/boot_id')?.trim() || null;
}

function readIfPresent(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

function mtimeMs(path: string): number | null {
  try {
    return statSync(path).mtimeMs;
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

function isMissing(error: unknown): boolean {
  const code = errorCode(error);
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR';
}

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}
