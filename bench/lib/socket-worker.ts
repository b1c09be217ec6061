/**
 * Staff browsers in their own thread: `count` Socket.IO clients (WebSocket, as the app connects), spread over
 * the given server URLs, each recording when every `message.created` (or the job's event) arrives (epoch milliseconds with
 * sub-millisecond precision, comparable across threads). Posts 'ready' once all are connected; on 'stop' posts
 * the arrival times by message id and disconnects.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { io, type Socket } from 'socket.io-client';

/** `event` (default `message.created`) is recorded by the `id` of what it carries. */
export type SocketJob = { urls: string[]; token: string; count: number; event?: string };
export type SocketResult = { arrivals: Record<string, number[]> };

const now = () => performance.timeOrigin + performance.now();

async function run(job: SocketJob) {
  const arrivals: Record<string, number[]> = {};
  const sockets: Socket[] = [];
  await Promise.all(
    Array.from(
      { length: job.count },
      (_, i) =>
        new Promise<void>((resolve, reject) => {
          const socket = io(job.urls[i % job.urls.length]!, {
            path: '/socket.io',
            auth: { token: job.token },
            transports: ['websocket'],
            reconnection: false,
            forceNew: true,
          });
          sockets.push(socket);
          socket.on(job.event ?? 'message.created', (m: { id: string }) => {
            const at = now();
            arrivals[m.id] ??= [];
            arrivals[m.id]!.push(at);
          });
          socket.once('connect', () => resolve());
          socket.once('connect_error', reject);
        }),
    ),
  );
  parentPort!.postMessage('ready');
  parentPort!.once('message', () => {
    for (const s of sockets) s.disconnect();
    parentPort!.postMessage({ arrivals } satisfies SocketResult);
  });
}

void run(workerData as SocketJob);
