import { Worker } from 'node:worker_threads';
import type { SocketJob, SocketResult } from './socket-worker.ts';

/**
 * Staff sockets in a worker thread of their own (`socket-worker.ts`): resolves once all are connected;
 * `stop()` disconnects them and answers when each event arrived at each socket.
 */
export async function startSocketPool(job: SocketJob): Promise<{ stop(): Promise<SocketResult> }> {
  const worker = new Worker(
    `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(
      new URL('./socket-worker.ts', import.meta.url).href,
    )}); })`,
    { eval: true, workerData: job },
  );
  const failed = new Promise<never>((_, reject) => worker.once('error', reject));
  await Promise.race([new Promise((r) => worker.once('message', r)), failed]);
  return {
    async stop() {
      const result = await Promise.race([
        new Promise<SocketResult>((resolve) => {
          worker.once('message', resolve);
          worker.postMessage('stop');
        }),
        failed,
      ]);
      await worker.terminate();
      return result;
    },
  };
}
