import { EventEmitter } from 'node:events';

/**
 * Loaded into a server process a test starts (`startServerProcess(env, { crashOnEvent })`): kill -9 of the
 * process the moment the named domain event is first emitted on the app's bus, to crash at an exact point
 * (say, right after a payment's commit, when the invoice's change is announced).
 */
const name = process.env.CRASH_ON_EVENT;
if (name) {
  const emit = EventEmitter.prototype.emit;
  EventEmitter.prototype.emit = function crashing(
    this: EventEmitter,
    event: string | symbol,
    ...args: unknown[]
  ) {
    if (event === name) process.kill(process.pid, 'SIGKILL');
    return emit.call(this, event, ...args);
  };
}
