import { parentPort } from 'node:worker_threads';

/** Inside an isolated worker: runs each task it is sent and answers with its value, or its error in words. */
type Task = { id: number; module: string; fn: string; input: unknown };

const port = parentPort;
if (!port) throw new Error('isolated-worker.ts runs only as a worker thread.');

port.on('message', async ({ id, module, fn, input }: Task) => {
  try {
    const exported = (await import(module)) as Record<string, unknown>;
    const run = exported[fn];
    if (typeof run !== 'function') throw new Error(`${module} exports no function ${fn}.`);
    port.postMessage({ id, ok: true, value: await run(input) });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const code = (error as { code?: unknown } | null)?.code;
    port.postMessage({ id, ok: false, message, ...(typeof code === 'string' ? { code } : {}) });
  }
});
