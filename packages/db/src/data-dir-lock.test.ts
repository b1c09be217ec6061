import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from './client.ts';
import { acquireDataDirLock, DataDirLockedError } from './data-dir-lock.ts';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const lockModule = fileURLToPath(new URL('./data-dir-lock.ts', import.meta.url));

/**
 * A child process that takes the lock with the real code, says `locked` (or `refused`) and keeps running
 * until killed. With `waitForGo` it takes the lock only when a line arrives on its stdin, so several
 * children can be released at the same moment.
 */
const HOLDER_SCRIPT = `
const { acquireDataDirLock, DataDirLockedError } = await import(process.env.LOCK_MODULE);
if (process.env.WAIT_FOR_GO) {
  console.log('ready');
  await new Promise((resolve) => process.stdin.once('data', resolve));
}
try {
  await acquireDataDirLock(process.env.LOCK_DIR);
  console.log('locked');
  setInterval(() => {}, 1000);
} catch (error) {
  if (!(error instanceof DataDirLockedError)) throw error;
  console.log('refused');
  process.exit(0);
}
`;

type Holder = { child: ChildProcess; lines: string[]; next(): Promise<string> };

function spawnHolder(dir: string, options: { waitForGo?: boolean } = {}): Holder {
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', HOLDER_SCRIPT], {
    cwd: repoRoot,
    env: {
      ...process.env,
      LOCK_MODULE: lockModule,
      LOCK_DIR: dir,
      WAIT_FOR_GO: options.waitForGo ? '1' : '',
    },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  children.push(child);
  const lines: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  let buffered = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    const parts = buffered.split('\n');
    buffered = parts.pop() ?? '';
    for (const line of parts) {
      const waiter = waiting.shift();
      if (waiter) waiter(line);
      else lines.push(line);
    }
  });
  const exited = new Promise<string>((resolve) => child.once('exit', (code) => resolve(`exit ${code}`)));
  return {
    child,
    lines,
    next: () => {
      const line = lines.shift();
      if (line !== undefined) return Promise.resolve(line);
      return Promise.race([new Promise<string>((resolve) => waiting.push(resolve)), exited]);
    },
  };
}

async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  // Until the exit is collected the child is a zombie; the lock treats that as gone too.
  await exited;
}

/** The lock a process took and then left behind when it was killed. */
async function lockLeftByKilledProcess(dir: string): Promise<void> {
  const holder = spawnHolder(dir);
  expect(await holder.next()).toBe('locked');
  await kill(holder.child);
}

function ownerPath(dir: string): string {
  return join(dir, '.switchboard.lock', 'owner.json');
}

function readOwner(dir: string): Record<string, unknown> {
  return JSON.parse(readFileSync(ownerPath(dir), 'utf8'));
}

function writeOwner(dir: string, text: string, ageMs = 0): void {
  mkdirSync(join(dir, '.switchboard.lock'), { recursive: true });
  writeFileSync(ownerPath(dir), text);
  const at = new Date(Date.now() - ageMs);
  utimesSync(ownerPath(dir), at, at);
  utimesSync(join(dir, '.switchboard.lock'), at, at);
}

let dir: string;
let children: ChildProcess[];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'switchboard-lock-'));
  children = [];
});

afterEach(async () => {
  await Promise.all(children.map(kill));
  rmSync(dir, { recursive: true, force: true });
});

describe('data directory lock', () => {
  it('refuses a second holder while the first holds the lock, and is free again once released', async () => {
    const first = await acquireDataDirLock(dir);
    await expect(acquireDataDirLock(dir)).rejects.toThrow(DataDirLockedError);
    await expect(acquireDataDirLock(dir)).rejects.toThrow(/already in use by another Switchboard process/);
    first.release();
    expect(existsSync(join(dir, '.switchboard.lock'))).toBe(false);
    const second = await acquireDataDirLock(dir);
    second.release();
  });

  it('refuses while another live process holds the lock', async () => {
    const holder = spawnHolder(dir);
    expect(await holder.next()).toBe('locked');
    await expect(acquireDataDirLock(dir)).rejects.toThrow(DataDirLockedError);
  });

  it('takes over at once the lock of a process killed with SIGKILL', async () => {
    await lockLeftByKilledProcess(dir);
    const started = performance.now();
    const lock = await acquireDataDirLock(dir);
    expect(performance.now() - started).toBeLessThan(500);
    expect(readOwner(dir).pid).toBe(process.pid);
    lock.release();
  });

  it.runIf(process.platform === 'linux')(
    'takes over a lock naming a live pid with another start time (the pid was reused)',
    async () => {
      const holder = spawnHolder(dir);
      expect(await holder.next()).toBe('locked');
      const owner = readOwner(dir);
      expect(owner.pid).toBe(holder.child.pid);
      expect(owner.start).toEqual(expect.any(Number));
      writeOwner(dir, JSON.stringify({ ...owner, start: (owner.start as number) + 1 }));
      const lock = await acquireDataDirLock(dir);
      expect(readOwner(dir).pid).toBe(process.pid);
      lock.release();
    },
  );

  it.runIf(process.platform === 'linux')('takes over a lock written before the last reboot', async () => {
    const holder = spawnHolder(dir);
    expect(await holder.next()).toBe('locked');
    writeOwner(dir, JSON.stringify({ ...readOwner(dir), boot_id: 'a-previous-boot' }));
    const lock = await acquireDataDirLock(dir);
    lock.release();
  });

  it('refuses a lock whose owner file is unreadable but fresh (its creator may be writing it)', async () => {
    writeOwner(dir, '');
    await expect(acquireDataDirLock(dir)).rejects.toThrow(DataDirLockedError);
    writeOwner(dir, '{"pid":');
    await expect(acquireDataDirLock(dir)).rejects.toThrow(DataDirLockedError);
  });

  it('takes over a lock whose owner file has been unreadable for a while', async () => {
    writeOwner(dir, '', 10_000);
    const first = await acquireDataDirLock(dir);
    first.release();
    writeOwner(dir, '{"pid":', 10_000);
    const second = await acquireDataDirLock(dir);
    second.release();
  });

  it('takes over an empty lock directory left behind by proper-lockfile', async () => {
    mkdirSync(join(dir, '.switchboard.lock'));
    await expect(acquireDataDirLock(dir)).rejects.toThrow(DataDirLockedError);
    const old = new Date(Date.now() - 20_000);
    utimesSync(join(dir, '.switchboard.lock'), old, old);
    const lock = await acquireDataDirLock(dir);
    lock.release();
  });

  it('refuses the lock of another host while it is kept fresh, and takes it over once abandoned', async () => {
    const elsewhere = JSON.stringify({
      pid: process.pid,
      start: null,
      boot_id: null,
      hostname: 'another-host',
      created_at: new Date().toISOString(),
    });
    writeOwner(dir, elsewhere);
    await expect(acquireDataDirLock(dir)).rejects.toThrow(DataDirLockedError);
    writeOwner(dir, elsewhere, 60_000);
    const lock = await acquireDataDirLock(dir);
    lock.release();
  });

  it('leaves alone, on release, a lock that has since been taken over', async () => {
    const lock = await acquireDataDirLock(dir);
    const other = JSON.stringify({ ...readOwner(dir), created_at: new Date(0).toISOString() });
    writeOwner(dir, other);
    lock.release();
    expect(readFileSync(ownerPath(dir), 'utf8')).toBe(other);
  });

  it('lets exactly one of several processes starting together take over a stale lock', async () => {
    await lockLeftByKilledProcess(dir);
    const holders = Array.from({ length: 6 }, () => spawnHolder(dir, { waitForGo: true }));
    for (const holder of holders) expect(await holder.next()).toBe('ready');
    for (const holder of holders) holder.child.stdin?.write('go\n');
    const outcomes = await Promise.all(holders.map((holder) => holder.next()));
    expect(outcomes.filter((outcome) => outcome === 'locked')).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome === 'refused')).toHaveLength(holders.length - 1);
  });

  it('keeps openDatabase from opening a data directory another process holds', async () => {
    const holder = spawnHolder(dir);
    expect(await holder.next()).toBe('locked');
    await expect(openDatabase({ dataDir: dir })).rejects.toThrow(DataDirLockedError);
  });
});
