import type { FastifyInstance } from 'fastify';
import { attachMedia } from '../modules/channels/media.ts';
import { nameCustomer } from '../modules/customers/naming.ts';
import {
  deliverSandboxMessage,
  requeueStuckMessages,
  sendQueuedMessage,
} from '../modules/messages/outbound.ts';
import { customerProfile } from './definitions/customer-profile.ts';
import { inboundMedia } from './definitions/inbound-media.ts';
import { messageSend } from './definitions/message-send.ts';
import { sandboxDelivery } from './definitions/sandbox-delivery.ts';
import { systemMail } from './definitions/system-mail.ts';

/**
 * Every background worker, bound to its job definition in one place. Called once the whole app is built, so a
 * worker never runs before the channel adapters, policies or routes it relies on are registered.
 */
export async function startWorkers(app: FastifyInstance): Promise<void> {
  await app.jobs.work(messageSend, (job) => sendQueuedMessage(app, job));
  await app.jobs.work(sandboxDelivery, (job) => deliverSandboxMessage(app, job.data.message_id));
  await app.jobs.work(inboundMedia, (job) => attachMedia(app, job));
  await app.jobs.work(customerProfile, (job) => nameCustomer(app, job.data));
  await app.jobs.work(systemMail, (job) => app.mailer.deliver(job.data));

  const requeued = await requeueStuckMessages(app.db, app.jobs);
  if (requeued) app.log.info({ requeued }, 're-queued outbound messages left unsent');
}
