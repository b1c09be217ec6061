import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, eventually, type TestApp } from '../test/helpers.ts';
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
});
