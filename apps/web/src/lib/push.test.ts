import { describe, expect, it } from 'vitest';
import { NO_PUSH_API, NO_SERVICE_WORKER, withRetries } from './push.ts';

describe('service worker registration retries (spec §4)', () => {
  it('tries again up to 3 times, waiting 1, 2 and 4 seconds', async () => {
    const waits: number[] = [];
    let tries = 0;
    const failing = withRetries(
      async () => {
        tries += 1;
        throw new Error(`try ${tries}`);
      },
      undefined,
      undefined,
      async (ms) => {
        waits.push(ms);
      },
    );
    await expect(failing).rejects.toThrow('try 4');
    expect(tries).toBe(4);
    expect(waits).toEqual([1000, 2000, 4000]);
  });

  it('stops at the first success', async () => {
    const waits: number[] = [];
    let tries = 0;
    const value = await withRetries(
      async () => {
        tries += 1;
        if (tries < 3) throw new Error('not yet');
        return 'registered';
      },
      undefined,
      undefined,
      async (ms) => {
        waits.push(ms);
      },
    );
    expect(value).toBe('registered');
    expect(waits).toEqual([1000, 2000]);
  });

  it('says in the spec’s words what a browser lacks', () => {
    expect(NO_SERVICE_WORKER).toBe('No Service Worker support!');
    expect(NO_PUSH_API).toBe('No Push API Support!');
  });
});
