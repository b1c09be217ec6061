/**
 * HTTP load in its own thread, so the server under test keeps its event loop to itself: `concurrency`
 * senders post the prepared requests in order, each waiting for its answer before taking the next.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Agent, request } from 'undici';

export type LoadRequest = { path: string; headers: Record<string, string>; body: string };
export type LoadJob = { origin: string; concurrency: number; requests: LoadRequest[] };
export type LoadResult = {
  /** Milliseconds from first request sent to last answer received. */
  wallMs: number;
  /** Per-request latency in milliseconds, in completion order. */
  latencies: number[];
  /** Answers other than 2xx, by status (0: the connection failed). */
  failures: Record<number, number>;
  /** The first few failure bodies, to say what went wrong. */
  samples: string[];
};

async function run(job: LoadJob): Promise<LoadResult> {
  const dispatcher = new Agent({ connections: job.concurrency, pipelining: 1 });
  const latencies: number[] = [];
  const failures: Record<number, number> = {};
  const samples: string[] = [];
  let next = 0;
  const sender = async () => {
    for (let i = next++; i < job.requests.length; i = next++) {
      const r = job.requests[i]!;
      const t0 = performance.now();
      let status = 0;
      let text = '';
      try {
        const res = await request(`${job.origin}${r.path}`, {
          method: 'POST',
          headers: r.headers,
          body: r.body,
          dispatcher,
        });
        status = res.statusCode;
        text = await res.body.text();
      } catch (error) {
        text = String(error);
      }
      latencies.push(performance.now() - t0);
      if (status < 200 || status >= 300) {
        failures[status] = (failures[status] ?? 0) + 1;
        if (samples.length < 3) samples.push(`${status} ${text.slice(0, 200)}`);
      }
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: job.concurrency }, sender));
  const wallMs = performance.now() - started;
  await dispatcher.close();
  return { wallMs, latencies, failures, samples };
}

parentPort?.postMessage(await run(workerData as LoadJob));
