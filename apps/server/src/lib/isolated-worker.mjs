// The entry of an isolated worker (see isolated-work.ts). Plain JavaScript, because a worker thread does not
// inherit the server's TypeScript loader: it registers tsx itself, then runs the typed message loop.
import { register } from 'tsx/esm/api';

register();
await import('./isolated-worker.ts');
