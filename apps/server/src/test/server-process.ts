import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { connect, createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { testConfig } from './helpers.ts';

const REPO = fileURLToPath(new URL('../../../../', import.meta.url));

/** A free TCP port on loopback. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

/** The keys `testConfig` uses, so a server process and the test's own app read each other's secrets. */
export const TEST_KEYS = {
  JWT_SECRET: 'test-secret-test-secret-test-secret-0123456789',
  ENCRYPTION_KEY: '0'.repeat(64),
};
// Fails loudly if testConfig's keys ever change without these.
testConfig(TEST_KEYS);

export type ServerProcess = {
  url: string;
  child: ChildProcess;
  /** What the process printed, for a failing test's message. */
  output(): string;
  /** kill -9: no shutdown, no drain, nothing flushed. */
  crash(): Promise<void>;
  /** SIGTERM and wait for the graceful shutdown to finish. */
  stop(): Promise<void>;
};

/**
 * Starts `node apps/server/src/server.ts` with `env` on a free port and waits until it answers. With
 * `crashOnEvent`, the process kills itself (-9) when that domain event is first emitted (`crash-on-event.ts`).
 */
export async function startServerProcess(
  env: Record<string, string>,
  options: { crashOnEvent?: string } = {},
): Promise<ServerProcess> {
  const port = await freePort();
  const preload = options.crashOnEvent ? ['--import', './apps/server/src/test/crash-on-event.ts'] : [];
  const child = spawn(process.execPath, ['--import', 'tsx', ...preload, 'apps/server/src/server.ts'], {
    cwd: REPO,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      SMTP_ENABLED: 'false',
      LOGIN_MAX_PER_IP: '100000',
      JOB_RETRY_DELAY_SECONDS: '1',
      ...TEST_KEYS,
      ...env,
      ...(options.crashOnEvent ? { CRASH_ON_EVENT: options.crashOnEvent } : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout?.on('data', (d: Buffer) => {
    log += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    log += d.toString();
  });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited while starting:\n${log}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {}
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the server did not start within 90 s:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    child,
    output: () => log,
    async crash() {
      child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** A private Redis on a loopback port (Debian's redis-server, which `npm test` installs); null without it. */
export async function startRedis(): Promise<{ url: string; stop(): void } | null> {
  if (spawnSync('redis-server', ['--version']).status !== 0) return null;
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', ''], {
    stdio: 'ignore',
  });
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) return null;
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) break;
    if (Date.now() > deadline) {
      child.kill();
      return null;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url: `redis://127.0.0.1:${port}`, stop: () => child.kill() };
}
