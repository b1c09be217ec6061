/**
 * Staff and providers at once, in their own thread: `staff` people each listing the inbox again as soon as it
 * answered, while webhooks arrive at a steady `webhooksPerSecond` (sent on schedule, whether or not earlier
 * ones have been answered), for `seconds`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Agent, request } from 'undici';
import type { LoadRequest } from './load-worker.ts';

export type MixedJob = {
  origin: string;
  seconds: number;
  staff: number;
  token: string;
  listPath: string;
  webhooksPerSecond: number;
  webhooks: LoadRequest[];
};
export type MixedResult = {
  list: number[];
  webhook: number[];
  failures: Record<string, number>;
  samples: string[];
};

async function run(job: MixedJob): Promise<MixedResult> {
  const dispatcher = new Agent({ connections: job.staff + 64, pipelining: 1 });
  const result: MixedResult = { list: [], webhook: [], failures: {}, samples: [] };
  const fail = (what: string, status: number, body: string) => {
    const key = `${what} ${status}`;
    result.failures[key] = (result.failures[key] ?? 0) + 1;
    if (result.samples.length < 3) result.samples.push(`${key}: ${body.slice(0, 200)}`);
  };
  const end = performance.now() + job.seconds * 1000;
  const staff = async () => {
    while (performance.now() < end) {
      const t0 = performance.now();
      try {
        const res = await request(`${job.origin}${job.listPath}`, {
          dispatcher,
          headers: { authorization: `Bearer ${job.token}` },
        });
        const body = await res.body.text();
        if (res.statusCode === 200) result.list.push(performance.now() - t0);
        else fail('list', res.statusCode, body);
      } catch (error) {
        fail('list', 0, String(error));
      }
    }
  };
  const webhooks = async () => {
    const pending: Promise<void>[] = [];
    const interval = 1000 / job.webhooksPerSecond;
    const start = performance.now();
    for (let i = 0; i < job.webhooks.length; i++) {
      const due = start + i * interval;
      if (due >= end) break;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const r = job.webhooks[i]!;
      pending.push(
        (async () => {
          const t0 = performance.now();
          try {
            const res = await request(`${job.origin}${r.path}`, {
              method: 'POST',
              dispatcher,
              headers: r.headers,
              body: r.body,
            });
            const body = await res.body.text();
            if (res.statusCode === 200) result.webhook.push(performance.now() - t0);
            else fail('webhook', res.statusCode, body);
          } catch (error) {
            fail('webhook', 0, String(error));
          }
        })(),
      );
    }
    await Promise.all(pending);
  };
  await Promise.all([...Array.from({ length: job.staff }, staff), webhooks()]);
  await dispatcher.close();
  return result;
}

run(workerData as MixedJob).then((r) => parentPort!.postMessage(r));
