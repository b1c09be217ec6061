import { afterAll, describe, expect, it } from 'vitest';
import { IsolatedPool, IsolatedWorkError, TaskError } from './isolated-work.ts';

const TASKS = new URL('../test/isolated-tasks.ts', import.meta.url);

describe('isolated work: a task that runs wild fails by itself and the next one runs', () => {
  const pool = new IsolatedPool({ heapMb: 64, growthMb: 256, maxQueue: 2, maxWaitMs: 5_000, idleMs: 1_000 });
  afterAll(() => pool.close());

  const run = (fn: string, input: unknown = null, timeoutMs = 10_000) =>
    pool.run({ module: TASKS, fn, input, timeoutMs });
  const failure = async (promise: Promise<unknown>) => {
    const error = await promise.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Error);
    return error as Error;
  };

  it('answers a task with its value, and a refusal with its message and code', async () => {
    expect(await run('echo', { sections: [{ heading: 'Parking', body: 'Behind the building.' }] })).toEqual({
      sections: [{ heading: 'Parking', body: 'Behind the building.' }],
    });
    const refused = await failure(run('refuse'));
    expect(refused).toBeInstanceOf(TaskError);
    expect(refused).toMatchObject({ message: 'That file is not welcome.', code: 'unprocessable' });
  });

  it('a task past the heap limit, past the memory watch, past its time or that ends its thread fails with the reason', async () => {
    const before = process.memoryUsage.rss();
    expect(await failure(run('hogHeap'))).toMatchObject({ reason: 'memory' });
    expect(await failure(run('swellBuffers'))).toMatchObject({ reason: 'memory' });
    const started = Date.now();
    expect(await failure(run('spin', null, 500))).toMatchObject({ reason: 'timeout' });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await failure(run('quit'))).toMatchObject({ reason: 'crash' });
    // The test's own process is still here, and the next task runs in a fresh worker.
    expect(await run('echo', 'still here')).toBe('still here');
    expect(process.memoryUsage.rss() - before).toBeLessThan(1024 * 1024 * 1024);
  });

  it('runs one task at a time: a short queue waits its turn, and beyond it a task is refused as busy', async () => {
    const stuck = run('spin', null, 1_500);
    const queued = [run('echo', 1), run('echo', 2)];
    const refused = await failure(run('echo', 3));
    expect(refused).toBeInstanceOf(IsolatedWorkError);
    expect(refused).toMatchObject({ reason: 'busy' });
    expect(await failure(stuck)).toMatchObject({ reason: 'timeout' });
    expect(await Promise.all(queued)).toEqual([1, 2]);
  });
});
