import { calls, channelAccounts, messages } from '@switchboard/db';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { JobWithMetadata } from 'pg-boss';
import { twilioBasicAuth } from '../../channels/twilio/api.ts';
import type { CallRecordingJob } from '../../jobs/definitions/call-recording.ts';
import { callTranscribe } from '../../jobs/definitions/call-transcribe.ts';
import { downloadMedia } from '../../lib/provider-http.ts';
import { saveUpload, toAttachment, type Upload } from '../../lib/storage.ts';
import { openAccount } from '../channels/accounts.ts';
import { showCall } from './service.ts';

type CallRow = typeof calls.$inferSelect;

/**
 * The recording, downloaded with the account's credentials (only from Twilio's own hosts) as MP3, is kept with
 * the business's files and attached to the call's message, which every open screen then shows. A repeat of
 * the job finds the recording already attached and does nothing.
 */
export async function fetchRecording(
  app: FastifyInstance,
  job: JobWithMetadata<CallRecordingJob>,
): Promise<void> {
  try {
    await fetchOnce(app, job.data);
  } catch (error) {
    // The last try: the call says its recording never came.
    if (job.retryCount >= job.retryLimit) {
      const [call] = await app.db.select().from(calls).where(eq(calls.id, job.data.call_id));
      if (call) {
        await app.db
          .update(messages)
          .set({
            meta: sql`${messages.meta} || ${JSON.stringify({ call_recording_note: 'The recording could not be fetched from Twilio.' })}::jsonb`,
          })
          .where(eq(messages.id, call.message_id));
        await showCall(app, call);
      }
    }
    throw error;
  }
}

async function fetchOnce(app: FastifyInstance, job: CallRecordingJob): Promise<void> {
  const [call] = await app.db.select().from(calls).where(eq(calls.id, job.call_id));
  if (!call || call.recording_upload_id) return;
  const [row] = await app.db.select().from(channelAccounts).where(eq(channelAccounts.id, job.account_id));
  if (!row || row.business_id !== call.business_id) return;
  const account = openAccount<'twilio'>(app.config.encryptionKey, row);
  const api = new URL(app.config.providers.twilioApiBase);
  // A dual-channel recording comes as WAV, whose two ends the transcription can tell apart; others as MP3.
  const dual = call.recording_channels === 2;
  const extension = dual ? 'wav' : 'mp3';
  const base = job.recording_url.replace(/\.(mp3|wav)$/, '');
  const url = new URL(`${base}.${extension}`);
  const twilioHosted =
    url.origin === api.origin || url.hostname === 'api.twilio.com' || url.hostname.endsWith('.twilio.com');
  const file = await downloadMedia(url.toString(), {
    maxBytes: app.config.uploadMaxBytes,
    timeoutMs: app.config.providers.timeoutMs,
    headers: twilioHosted ? { authorization: twilioBasicAuth(account.config) } : undefined,
    trustedOrigins: [api.origin],
  });
  const upload = await saveUpload(app.db, app.config, {
    business_id: call.business_id,
    user_id: null,
    name: recordingName(call, extension),
    content_type: dual ? 'audio/wav' : 'audio/mpeg',
    bytes: file.bytes,
  });
  await attachRecording(app, call, upload);
}

/** The recording's file name: `call-2026-11-24T0930.mp3`, `voicemail-…`. */
export const recordingName = (call: CallRow, extension: string) =>
  `${call.voicemail ? 'voicemail' : 'call'}-${call.created_at.toISOString().slice(0, 16).replace(':', '')}.${extension}`;

/**
 * A call's recording, kept with the business's files: attached to the call's message (once), shown on every
 * open screen, and queued for transcription.
 */
export async function attachRecording(app: FastifyInstance, call: CallRow, upload: Upload): Promise<void> {
  const [updated] = await app.db
    .update(calls)
    .set({ recording_upload_id: upload.id })
    .where(and(eq(calls.id, call.id), sql`${calls.recording_upload_id} is null`))
    .returning();
  if (!updated) return;
  await app.db
    .update(messages)
    .set({
      attachments: sql`${messages.attachments} || ${JSON.stringify([toAttachment(upload)])}::jsonb`,
      call_transcription_status: 'not_started',
      call_summary_status: 'not_started',
    })
    .where(eq(messages.id, call.message_id));
  await showCall(app, updated);
  await app.jobs.send(callTranscribe, { call_id: call.id }, { singletonKey: call.id });
}
