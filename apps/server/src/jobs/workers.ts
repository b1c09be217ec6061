import { tidyEmbedded } from '@switchboard/db';
import type { FastifyInstance } from 'fastify';
import { autoReply, learnFromHandoff } from '../modules/ai/auto-reply.ts';
import { learnDocument, queueRecrawls } from '../modules/ai/documents.ts';
import { mailPasswordReset } from '../modules/auth/password-reset.ts';
import { fetchRecording } from '../modules/calls/recording.ts';
import { textBack } from '../modules/calls/text-back.ts';
import { summariseCall, transcribeCall } from '../modules/calls/transcribe.ts';
import { attachMedia, MEDIA_CONCURRENCY, MEDIA_PER_BUSINESS } from '../modules/channels/media.ts';
import { releaseUnheldNumbers, sweepUnheldNumbers } from '../modules/channels/platform-numbers.ts';
import { nameCustomer } from '../modules/customers/naming.ts';
import { wakeEnquiry } from '../modules/enquiries/service.ts';
import { expireCheckoutSession } from '../modules/invoices/checkout.ts';
import { sweepInvoiceReminders } from '../modules/invoices/sending.ts';
import {
  createSandboxDeliverer,
  createSender,
  SEND_BATCH,
  sweepQueuedMessages,
} from '../modules/messages/sending.ts';
import { DIGEST_SWEEP_MS, sweepDigests } from '../modules/notifications/digest.ts';
import { deliverPush } from '../modules/notifications/push.ts';
import { remindReview, reviewAfterPaid } from '../modules/reviews/service.ts';
import { tidyExpiredSecrets } from '../modules/signup/secrets.ts';
import { mailSignup } from '../modules/signup/service.ts';
import { passwordResetMail, signupMail } from './definitions/account-mail.ts';
import { aiAutoReply, aiDocument, aiLearn } from './definitions/ai.ts';
import { callRecording } from './definitions/call-recording.ts';
import { callSummarise, callTextBack, callTranscribe } from './definitions/call-transcribe.ts';
import { checkoutExpire } from './definitions/checkout-expire.ts';
import { customerProfile } from './definitions/customer-profile.ts';
import { enquiryWake } from './definitions/enquiry-wake.ts';
import { inboundMedia } from './definitions/inbound-media.ts';
import { messageSend } from './definitions/message-send.ts';
import { numbersRelease } from './definitions/numbers-release.ts';
import { pushNotify } from './definitions/push-notify.ts';
import { reviewAfterPayment, reviewRemind } from './definitions/reviews.ts';
import { sandboxDelivery } from './definitions/sandbox-delivery.ts';
import { systemMail } from './definitions/system-mail.ts';

/**
 * Every background worker, bound to its job definition in one place. Called once the whole app is built, so a
 * worker never runs before the channel adapters, policies or routes it relies on are registered.
 */
export async function startWorkers(app: FastifyInstance): Promise<void> {
  await app.jobs.workBatch(messageSend, createSender(app), { batchSize: SEND_BATCH });
  await app.jobs.workBatch(sandboxDelivery, createSandboxDeliverer(app), { batchSize: SEND_BATCH });
  await app.jobs.work(inboundMedia, (job) => attachMedia(app, job), {
    localConcurrency: MEDIA_CONCURRENCY,
    localGroupConcurrency: MEDIA_PER_BUSINESS,
    pollingIntervalSeconds: 1,
  });
  await app.jobs.work(customerProfile, (job) => nameCustomer(app, job.data));
  await app.jobs.work(systemMail, (job) => app.mailer.deliver(job.data));
  await app.jobs.work(signupMail, (job) => mailSignup(app, job.data));
  await app.jobs.work(passwordResetMail, (job) => mailPasswordReset(app, job.data));
  await app.jobs.work(enquiryWake, (job) => wakeEnquiry(app, job.data));
  await app.jobs.work(callRecording, (job) => fetchRecording(app, job));
  await app.jobs.work(callTranscribe, (job) => transcribeCall(app, job));
  await app.jobs.work(callSummarise, (job) => summariseCall(app, job.data));
  await app.jobs.work(callTextBack, (job) => textBack(app, job.data));
  await app.jobs.work(aiAutoReply, (job) => autoReply(app, job.data));
  await app.jobs.work(aiLearn, (job) => learnFromHandoff(app, job.data));
  await app.jobs.work(aiDocument, (job) => learnDocument(app, job.data));
  await app.jobs.work(reviewRemind, (job) => remindReview(app, job.data));
  await app.jobs.work(reviewAfterPayment, (job) => reviewAfterPaid(app, job.data));
  await app.jobs.work(checkoutExpire, (job) => expireCheckoutSession(app, job.data));
  await app.jobs.work(numbersRelease, async (job) => {
    await releaseUnheldNumbers(app, job.data.business_id);
  });
  await app.jobs.work(pushNotify, async (job) => {
    await deliverPush(app, job.data);
  });
  // Websites the owner wants fetched again, looked for every hour on every node (a job per site at a time).
  every(app, RECRAWL_SWEEP_MS, 'queuing website re-crawls failed', () => queueRecrawls(app));
  // Invoices past due become overdue and their reminders go out, looked for every hour (each reminder once).
  every(app, RECRAWL_SWEEP_MS, 'sending invoice reminders failed', () => sweepInvoiceReminders(app));
  // Owners who asked are emailed the enquiries no one has answered for their chosen time, looked for every minute.
  every(app, DIGEST_SWEEP_MS, 'emailing unanswered enquiries failed', () => sweepDigests(app));
  // Platform numbers of ended subscriptions or removed channels, should their event's job have been lost.
  every(app, RECRAWL_SWEEP_MS, 'looking for numbers to release failed', () => sweepUnheldNumbers(app));
  // Sign-ups never confirmed forget the person's details once their code expires; old links go a week later.
  every(app, RECRAWL_SWEEP_MS, 'tidying expired links and codes failed', () => tidyExpiredSecrets(app.db));
  // The embedded database is vacuumed and analysed as autovacuum would (PostgreSQL does it itself).
  if (app.database.engine === 'pglite') {
    every(app, UPKEEP_MS, 'tidying the embedded database failed', async () => {
      const done = await tidyEmbedded(app.database);
      if (done.length) app.log.info({ done }, 'tidied the embedded database');
    });
  }

  // Replies left queued without a job (a node stopped between storing one and queuing its job) are looked for
  // at start and every few seconds after, on every node. A job's id is its message's, so a sweep racing the
  // node that is about to queue it adds nothing.
  // Likewise the outbox: follow-ups (an inbound message's media and the assistant's answer, a missed call's
  // text) written with what they follow up but not yet queued. At start all of them (this node's own, left by
  // a crash); after that those old enough that the node that wrote them should have queued them already.
  const sweep = async (olderThanSeconds = OUTBOX_GRACE_SECONDS) => {
    try {
      const found = await sweepQueuedMessages(app);
      if (found) app.log.info({ found }, 'picked up outbound messages left unsent');
    } catch (error) {
      app.log.error({ err: error }, 'looking for unsent messages failed');
    }
    try {
      const queued = await app.jobs.sweepOutbox(olderThanSeconds);
      if (queued) app.log.info({ queued }, 'queued follow-ups a stopped server left in the outbox');
    } catch (error) {
      app.log.error({ err: error }, 'queuing follow-ups left in the outbox failed');
    }
  };
  await sweep(0);
  const timer = setInterval(() => void sweep(), SWEEP_SECONDS * 1000);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
}

const SWEEP_SECONDS = 10;
/** An outbox entry this old was written by a node that has stopped, or whose queuing failed. */
const OUTBOX_GRACE_SECONDS = 30;
const RECRAWL_SWEEP_MS = 3_600_000;
const UPKEEP_MS = 600_000;

/** Runs `task` every `ms` on this node until the app closes; a failure is logged and the next run goes ahead. */
function every(app: FastifyInstance, ms: number, failure: string, task: () => Promise<unknown>): void {
  const timer = setInterval(() => {
    task().catch((error: unknown) => app.log.error({ err: error }, failure));
  }, ms);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
}
