import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, eventually, jobsSettled, type TestApp } from '../test/helpers.ts';
import { defineJob, sendOptionsOf } from './define.ts';
import { messageSend } from './definitions/message-send.ts';
import { systemMail } from './definitions/system-mail.ts';

describe('job definitions', () => {
  it('give their own retry policy, or the configured delay without backoff', () => {
    expect(sendOptionsOf(messageSend, undefined)).toEqual({
      retryLimit: 6,
      retryDelay: 2,
      retryBackoff: true,
      expireInSeconds: 120,
      heartbeatSeconds: 10,
    });
    expect(sendOptionsOf(messageSend, 1)).toMatchObject({
      retryLimit: 6,
      retryDelay: 1,
      retryBackoff: false,
    });
  });
});

describe('the job queue', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('refuses to queue a payload its definition does not accept, and queues nothing', async () => {
    await expect(t.app.jobs.send(messageSend, { message_id: 'not-a-uuid' })).rejects.toThrow();
    const queued = await t.app.jobs.boss.findJobs(messageSend.name, { data: { message_id: 'not-a-uuid' } });
    expect(queued).toEqual([]);
  });

  it('runs a worker bound after the app is built, and skips a payload written by hand that it cannot read', async () => {
    const seen: string[] = [];
    const probe = defineJob({ name: 'test.probe', payload: systemMail.payload, retry: systemMail.retry });
    await t.app.jobs.work(probe, async (job) => {
      seen.push(job.data.subject);
    });
    // Straight into the queue, past the definition's check (as an older version might have left it).
    await t.app.jobs.boss.send(probe.name, { subject: 42 });
    await t.app.jobs.send(probe, { to: 'a@example.com', subject: 'hello', text: 'x' });
    await eventually(async () => seen.length > 0);
    expect(seen).toEqual(['hello']);
  });

  it('queues a job a stopped server left in the outbox once, however often released, and never one rolled back', async () => {
    const ran: string[] = [];
    const followup = defineJob({
      name: 'test.followup',
      payload: z.object({ n: z.number() }),
      retry: { retryLimit: 0, retryDelay: 1, retryBackoff: false },
    });
    await t.app.jobs.work(followup, async (job) => {
      ran.push(job.id);
    });
    const kept = t.app.jobs.entry(followup, { n: 1 }, { id: randomUUID() });
    const lost = t.app.jobs.entry(followup, { n: 2 }, { id: randomUUID() });
    // Committed with what it follows up, and the server stopped before releasing it.
    await t.database.db.transaction((tx) => t.app.jobs.stage(tx, [kept]));
    // Staged in a transaction that failed: it never happened.
    await t.database.db
      .transaction(async (tx) => {
        await t.app.jobs.stage(tx, [lost]);
        throw new Error('the batch failed');
      })
      .catch(() => undefined);

    // Left to the node that wrote it while young; then swept, and released again by a late node.
    expect(await t.app.jobs.sweepOutbox(30)).toBe(0);
    expect(await t.app.jobs.sweepOutbox(0)).toBe(1);
    await t.app.jobs.release([kept]);
    expect(await t.app.jobs.sweepOutbox(0)).toBe(0);
    await jobsSettled(t, followup, { id: kept.id });
    expect(ran).toEqual([kept.id]);
    expect(await t.app.jobs.boss.findJobs(followup.name, { id: lost.id })).toEqual([]);
  });
});
