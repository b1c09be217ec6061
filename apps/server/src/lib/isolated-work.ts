import { Worker } from 'node:worker_threads';
import { AppError, ERROR_STATUS, type ErrorCode } from '../errors.ts';

/**
 * Work on files that people and web pages send (Word, PDF and HTML parsers, image decoders) runs here, in a
 * worker thread with a heap limit, a time limit and a watch on the process's memory, so a file built to explode
 * fails by itself and never takes the server down with it. One worker at a time and a short queue: many uploads
 * at once wait their turn (or are told to try again) instead of each getting a worker and memory of its own.
 */

/** Why isolated work failed, when the task itself did not say. */
export type IsolatedFailure = 'timeout' | 'memory' | 'crash' | 'busy';

export class IsolatedWorkError extends Error {
  readonly reason: IsolatedFailure;
  constructor(reason: IsolatedFailure, message: string) {
    super(message);
    this.reason = reason;
  }
}

/** An error the task threw, carried back from the worker with its code (an `AppError` code, when it had one). */
export class TaskError extends Error {
  readonly code: string | undefined;
  constructor(message: string, code: string | undefined) {
    super(message);
    this.code = code;
  }
}

/** A refusal the task threw as an `AppError`, as that error again (its code survives the trip), or null. */
export function appErrorOf(error: unknown): AppError | null {
  if (!(error instanceof TaskError) || !error.code || !(error.code in ERROR_STATUS)) return null;
  return new AppError(error.code as ErrorCode, error.message);
}

export type IsolatedTask = {
  /** The module that exports `fn`; it is imported inside the worker. */
  module: URL;
  fn: string;
  input: unknown;
  timeoutMs: number;
};

type PoolOptions = {
  /** The worker's V8 heap (old generation), in MB: past it the worker dies with ERR_WORKER_OUT_OF_MEMORY. */
  heapMb: number;
  /**
   * How far the process may grow (RSS) while one task runs, in MB. Buffers a parser inflates live outside the
   * V8 heap, so the heap limit alone does not bound them.
   */
  growthMb: number;
  /** Tasks waiting beyond the running one; one more is refused as busy. */
  maxQueue: number;
  /** How long a task may wait for its turn before it is refused as busy. */
  maxWaitMs: number;
  /** An idle worker is ended after this long, giving its memory back. */
  idleMs: number;
};

export const ISOLATED_POOL: PoolOptions = {
  heapMb: 512,
  growthMb: 768,
  maxQueue: 16,
  maxWaitMs: 60_000,
  idleMs: 60_000,
};

type Pending = {
  task: IsolatedTask;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  waiting?: NodeJS.Timeout;
};

type Answer =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; message: string; code?: string };

const BOOT = new URL('./isolated-worker.mjs', import.meta.url);
const WATCH_EVERY_MS = 50;

export class IsolatedPool {
  private worker: Worker | null = null;
  private running: (Pending & { id: number; deadline: NodeJS.Timeout; watch: NodeJS.Timeout }) | null = null;
  private readonly queue: Pending[] = [];
  private idle: NodeJS.Timeout | null = null;
  private nextId = 1;

  constructor(private readonly options: PoolOptions = ISOLATED_POOL) {}

  run<T>(task: IsolatedTask): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const pending: Pending = { task, resolve: resolve as (value: unknown) => void, reject };
      if (!this.running) return this.start(pending);
      if (this.queue.length >= this.options.maxQueue) {
        reject(new IsolatedWorkError('busy', 'Too many files are being read right now.'));
        return;
      }
      pending.waiting = setTimeout(() => {
        this.queue.splice(this.queue.indexOf(pending), 1);
        reject(new IsolatedWorkError('busy', 'Too many files are being read right now.'));
      }, this.options.maxWaitMs).unref();
      this.queue.push(pending);
    });
  }

  /** Ends the worker (a task in it fails as a crash); the next task starts a new one. */
  async close(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    this.fail(new IsolatedWorkError('crash', 'The server is shutting down.'));
    await worker.terminate();
  }

  private spawn(): Worker {
    const worker = new Worker(BOOT, {
      resourceLimits: { maxOldGenerationSizeMb: this.options.heapMb, maxYoungGenerationSizeMb: 32 },
    });
    worker.unref();
    worker.on('message', (answer: Answer) => this.answered(worker, answer));
    worker.on('error', (error: Error & { code?: string }) => {
      if (worker !== this.worker) return;
      this.fail(
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? new IsolatedWorkError('memory', 'Reading it needed more memory than is allowed.')
          : new IsolatedWorkError('crash', `The reader stopped: ${error.message}`),
      );
    });
    worker.on('exit', () => {
      if (worker !== this.worker) return;
      this.fail(new IsolatedWorkError('crash', 'The reader stopped.'));
    });
    return worker;
  }

  private start(pending: Pending) {
    if (pending.waiting) clearTimeout(pending.waiting);
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    this.worker ??= this.spawn();
    const id = this.nextId++;
    const { task } = pending;
    const deadline = setTimeout(
      () => this.fail(new IsolatedWorkError('timeout', 'Reading it took too long.')),
      task.timeoutMs,
    ).unref();
    const baseline = process.memoryUsage.rss();
    const limit = this.options.growthMb * 1024 * 1024;
    const watch = setInterval(() => {
      if (process.memoryUsage.rss() - baseline > limit)
        this.fail(new IsolatedWorkError('memory', 'Reading it needed more memory than is allowed.'));
    }, WATCH_EVERY_MS).unref();
    this.running = { ...pending, id, deadline, watch };
    this.worker.postMessage({ id, module: task.module.href, fn: task.fn, input: task.input });
  }

  private answered(worker: Worker, answer: Answer) {
    const running = this.running;
    if (worker !== this.worker || !running || running.id !== answer.id) return;
    this.finish();
    if (answer.ok) running.resolve(answer.value);
    else running.reject(new TaskError(answer.message, answer.code));
    this.next();
  }

  /** The running task fails and its worker is ended (it may be stuck or swollen); the queue goes on. */
  private fail(error: IsolatedWorkError) {
    const running = this.running;
    const worker = this.worker;
    this.worker = null;
    this.finish();
    if (worker) void worker.terminate();
    running?.reject(error);
    this.next();
  }

  private finish() {
    if (!this.running) return;
    clearTimeout(this.running.deadline);
    clearInterval(this.running.watch);
    this.running = null;
  }

  private next() {
    const pending = this.queue.shift();
    if (pending) return this.start(pending);
    if (!this.worker) return;
    const worker = this.worker;
    this.idle = setTimeout(() => {
      if (this.worker !== worker || this.running) return;
      this.worker = null;
      void worker.terminate();
    }, this.options.idleMs).unref();
  }
}

/** The server's one pool for untrusted files. */
export const isolated = new IsolatedPool();
