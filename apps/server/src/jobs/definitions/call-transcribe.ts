import { z } from 'zod';
import { defineJob } from '../define.ts';

/** Turns a call's recording into text, then queues its summary. */
export const callTranscribe = defineJob({
  name: 'call.transcribe',
  payload: z.object({ call_id: z.uuid() }),
  retry: { retryLimit: 4, retryDelay: 30, retryBackoff: true },
});

/** Says what a transcribed call was about (the AI model when one is set up; else an extractive summary). */
export const callSummarise = defineJob({
  name: 'call.summarise',
  payload: z.object({ call_id: z.uuid() }),
  retry: { retryLimit: 4, retryDelay: 30, retryBackoff: true },
});

/** Texts a caller nobody answered, when the location asks for it (once per call). */
export const callTextBack = defineJob({
  name: 'call.text-back',
  payload: z.object({ call_id: z.uuid() }),
  retry: { retryLimit: 3, retryDelay: 20, retryBackoff: true },
  // Its worker heartbeats: a text a stopped server was sending is taken over in seconds, not at expiry.
  options: { heartbeatSeconds: 10 },
});
