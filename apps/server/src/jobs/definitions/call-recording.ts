import { z } from 'zod';
import { defineJob } from '../define.ts';

/** Fetches a call's recording (or voicemail) from the provider into uploads and puts it on the call's message. */
export const callRecording = defineJob({
  name: 'call.recording',
  payload: z.object({ call_id: z.uuid(), account_id: z.uuid(), recording_url: z.string() }),
  retry: { retryLimit: 6, retryDelay: 15, retryBackoff: true },
});
export type CallRecordingJob = z.infer<typeof callRecording.payload>;
