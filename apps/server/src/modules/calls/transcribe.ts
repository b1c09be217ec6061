import { businesses, calls, locations, messages, uploads } from '@switchboard/db';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { JobWithMetadata } from 'pg-boss';
import { callSummarise } from '../../jobs/definitions/call-transcribe.ts';
import { jsonOf, providerFetch } from '../../lib/provider-http.ts';
import { readUpload } from '../../lib/storage.ts';
import { storableText } from '../../lib/text.ts';
import { splitWavChannels } from '../../lib/wav.ts';
import { assistantFor } from '../ai/service.ts';
import { showCall } from './service.ts';
import { extractiveSummary } from './summary.ts';

type Status = 'not_started' | 'in_progress' | 'completed' | 'failed';

type Speaker = 'customer' | 'staff';
type Segment = { start: number; end: number; text: string; speaker?: Speaker };
/** A call's transcript as kept on its message (`meta.call_transcript`); dual-channel calls say who spoke. */
export type Transcript = { text: string; segments: Segment[] };

type Service = FastifyInstance['config']['transcription'];

/** One file through the OpenAI-compatible `/v1/audio/transcriptions` endpoint: its text and timed segments. */
async function transcribeFile(
  app: FastifyInstance,
  service: Service,
  file: { bytes: Buffer; type: string; name: string },
): Promise<{ text: string; segments: Segment[] }> {
  const form = new FormData();
  form.set('file', new Blob([file.bytes], { type: file.type }), file.name);
  form.set('model', service.model);
  form.set('response_format', 'verbose_json');
  const res = await providerFetch('The transcription service', `${service.baseUrl}/v1/audio/transcriptions`, {
    method: 'POST',
    body: form,
    headers: service.apiKey ? { authorization: `Bearer ${service.apiKey}` } : {},
    timeoutMs: Math.max(app.config.providers.timeoutMs, 120_000),
  });
  const json = (await jsonOf(res)) as
    | { text?: string; segments?: Segment[]; error?: { message?: string } }
    | undefined;
  if (!res.ok || typeof json?.text !== 'string') {
    throw new Error(
      `The transcription service answered ${res.status}${json?.error?.message ? `: ${json.error.message}` : '.'}`,
    );
  }
  // Kept whatever characters the service put in it: a NUL or half an emoji would fail the call's update.
  return storableText({
    text: json.text.trim(),
    segments: (json.segments ?? []).map((s) => ({ start: s.start, end: s.end, text: s.text.trim() })),
  });
}

const SPEAKER_NAMES: Record<Speaker, string> = { customer: 'Customer', staff: 'Staff' };

/**
 * A dual-channel recording is transcribed one end at a time, and the two woven together by time, each line
 * saying who spoke. The customer is the first channel of an incoming call (and of every sandbox call); on a
 * call placed from a browser the browser's leg is Twilio's first channel.
 */
async function transcribeRecording(
  app: FastifyInstance,
  service: Service,
  call: { direction: string; provider: string; recording_channels: number | null },
  file: { bytes: Buffer; type: string; name: string },
): Promise<Transcript> {
  const ends = call.recording_channels === 2 && /wav/.test(file.type) ? splitWavChannels(file.bytes) : null;
  if (ends?.length !== 2) return transcribeFile(app, service, file);
  const firstIsCustomer = call.provider === 'sandbox' || call.direction === 'in';
  const speakers: Speaker[] = firstIsCustomer ? ['customer', 'staff'] : ['staff', 'customer'];
  const parts = [];
  for (const [i, bytes] of ends.entries())
    parts.push(await transcribeFile(app, service, { bytes, type: 'audio/wav', name: `${speakers[i]}.wav` }));
  const segments = parts
    .flatMap((part, i) =>
      (part.segments.length > 0
        ? part.segments
        : part.text
          ? [{ start: 0, end: 0, text: part.text }]
          : []
      ).map((s) => ({ ...s, speaker: speakers[i] })),
    )
    .filter((s) => s.text)
    .sort((a, b) => a.start - b.start);
  return {
    text: segments.map((s) => `${SPEAKER_NAMES[s.speaker!]}: ${s.text}`).join('\n'),
    segments,
  };
}

/** Said beside the call when there is nothing to transcribe with. */
export const NO_TRANSCRIPTION =
  'Calls are not transcribed: no speech-to-text service is set up on this server (TRANSCRIBE_BASE_URL).';
/** Said beside an answered call when Twilio transcribes (it only transcribes voicemails). */
export const VOICEMAILS_ONLY =
  'Twilio transcribes voicemails only: set TRANSCRIBE_BASE_URL to a speech-to-text server to transcribe calls.';

async function setMessage(
  app: FastifyInstance,
  messageId: string,
  set: Partial<typeof messages.$inferInsert> & { metaPatch?: Record<string, unknown> },
): Promise<void> {
  const { metaPatch, ...rest } = set;
  await app.db
    .update(messages)
    .set({
      ...rest,
      ...(metaPatch ? { meta: sql`${messages.meta} || ${JSON.stringify(metaPatch)}::jsonb` } : {}),
    })
    .where(eq(messages.id, messageId));
}

async function callOf(app: FastifyInstance, id: string) {
  const [call] = await app.db.select().from(calls).where(eq(calls.id, id));
  return call ?? null;
}

/**
 * Sends the recording to the OpenAI-compatible `/v1/audio/transcriptions` endpoint and keeps the text with
 * its timed segments. Without a service the call says so in plain words; an outage is retried with backoff,
 * and the last try marks the transcription failed with the reason.
 */
export async function transcribeCall(
  app: FastifyInstance,
  job: JobWithMetadata<{ call_id: string }>,
): Promise<void> {
  const call = await callOf(app, job.data.call_id);
  if (!call?.recording_upload_id) return;
  const service = app.config.transcription;
  const status = async (s: Status, metaPatch?: Record<string, unknown>) => {
    await setMessage(app, call.message_id, { call_transcription_status: s, metaPatch });
    await showCall(app, call);
  };
  if (service.provider === 'twilio') {
    // Twilio sends the voicemail's transcript itself (which may have come already).
    const [m] = await app.db
      .select({ s: messages.call_transcription_status })
      .from(messages)
      .where(eq(messages.id, call.message_id));
    if (m?.s === 'completed' || m?.s === 'failed') return;
    return call.voicemail && call.provider === 'twilio'
      ? status('in_progress')
      : status('not_started', { call_transcript_note: VOICEMAILS_ONLY });
  }
  if (!service.baseUrl) return status('not_started', { call_transcript_note: NO_TRANSCRIPTION });
  const [upload] = await app.db.select().from(uploads).where(eq(uploads.id, call.recording_upload_id));
  const bytes = upload ? await readUpload(app.config, upload) : undefined;
  if (!upload || !bytes)
    return status('failed', { call_transcript_note: 'The recording could not be read.' });
  await status('in_progress');
  try {
    const transcript = await transcribeRecording(app, service, call, {
      bytes,
      type: upload.content_type,
      name: upload.name,
    });
    await setMessage(app, call.message_id, {
      call_transcription_status: 'completed',
      metaPatch: { call_transcript: transcript, call_transcript_note: null },
    });
    await showCall(app, call);
    await app.jobs.send(callSummarise, { call_id: call.id }, { singletonKey: call.id });
  } catch (error) {
    if (job.retryCount >= job.retryLimit) {
      const reason =
        error instanceof Error ? error.message : 'The transcription service could not be reached.';
      await status('failed', { call_transcript_note: `Transcription failed: ${reason}` });
    }
    throw error;
  }
}

/** The call's summary from its transcript, in the business's time zone for any follow-up day. */
export async function summariseCall(app: FastifyInstance, job: { call_id: string }): Promise<void> {
  const call = await callOf(app, job.call_id);
  if (!call) return;
  const [row] = await app.db
    .select({
      meta: messages.meta,
      timezone: sql<string>`coalesce(${locations.timezone}, ${businesses.timezone})`,
    })
    .from(messages)
    .innerJoin(locations, eq(locations.id, call.location_id))
    .innerJoin(businesses, eq(businesses.id, call.business_id))
    .where(eq(messages.id, call.message_id));
  const transcript = row?.meta.call_transcript as Transcript | undefined;
  if (!row || !transcript) return;
  const { summary: extracted, details } = extractiveSummary(transcript.text, new Date(), row.timezone);
  // With an AI model the summary is the model's (the reasons, promises and follow-up day stay those said).
  const assistant = await assistantFor(app.db, app.config, call.business_id);
  const summary =
    assistant.kind === 'model'
      ? await assistant.summarise(transcript.text).catch((error: unknown) => {
          app.log.warn(
            { err: error, call_id: call.id },
            'the AI model did not summarise the call; kept the extract',
          );
          return extracted;
        })
      : extracted;
  await setMessage(app, call.message_id, {
    summary: summary || extracted,
    summary_details: details,
    call_summary_status: 'completed',
  });
  await showCall(app, call);
}

/** Twilio's transcript of a voicemail arrived (or Twilio could not make one): kept, and the call summarised. */
export async function providerTranscribed(
  app: FastifyInstance,
  input: { business_ids: string[]; provider: string; sid: string; completed: boolean; text: string },
): Promise<void> {
  const [call] = await app.db
    .select()
    .from(calls)
    .where(
      and(
        eq(calls.provider, input.provider),
        eq(calls.provider_call_sid, input.sid),
        inArray(calls.business_id, input.business_ids),
      ),
    );
  if (!call) return;
  const text = input.text.trim();
  if (input.completed && text) {
    await setMessage(app, call.message_id, {
      call_transcription_status: 'completed',
      metaPatch: { call_transcript: { text, segments: [] }, call_transcript_note: null },
    });
    await showCall(app, call);
    await app.jobs.send(callSummarise, { call_id: call.id }, { singletonKey: call.id });
    return;
  }
  await setMessage(app, call.message_id, {
    call_transcription_status: 'failed',
    metaPatch: { call_transcript_note: 'Twilio could not transcribe this voicemail.' },
  });
  await showCall(app, call);
}
