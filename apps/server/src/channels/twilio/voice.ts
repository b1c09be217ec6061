import twilio from 'twilio';

/**
 * Twilio Voice on the wire: the access token the browser's Voice SDK registers with, the TwiML that rings the
 * location's browsers and desk phones or dials a customer, and how a call's status callbacks move a call.
 * Everything here is pure (no database, no network), so it is checked against Twilio's own payloads.
 */

const { AccessToken } = twilio.jwt;
const { VoiceGrant } = AccessToken;

/** Where Twilio reaches us for calls, under PUBLIC_URL. */
export const VOICE_PATHS = {
  /** The number's Voice URL: a customer rings the location. */
  incoming: '/webhooks/twilio/voice/incoming',
  /** The TwiML App's Voice URL: a browser places a call. */
  outgoing: '/webhooks/twilio/voice/outgoing',
  status: '/webhooks/twilio/voice/status',
  /** After `<Dial>` ends: nobody answered → voicemail. */
  dialAction: '/webhooks/twilio/voice/dial-action',
  recording: '/webhooks/twilio/voice/recording-status',
  /** Twilio's transcription of a voicemail (`<Record transcribe>`), when Twilio transcribes. */
  transcription: '/webhooks/twilio/voice/transcription',
} as const;

/** How long the browsers and desk phones ring before the caller goes to voicemail. */
export const RING_SECONDS = 20;
/** How long an outgoing call rings the customer. */
export const DIAL_SECONDS = 30;
/** The longest voicemail kept. */
export const VOICEMAIL_MAX_SECONDS = 180;

const STATUS_EVENTS = 'initiated ringing answered completed';

// A client identity is letters, digits and underscores (what every Voice SDK accepts): the user and the
// location it rings for, so a token can only ever be minted for oneself at a location one belongs to.
const IDENTITY = /^u([0-9a-f]{32})_l([0-9a-f]{32})$/;
/** An id as the letters and digits Twilio names accept. */
export const compactId = (uuid: string) => uuid.replaceAll('-', '').toLowerCase();
const uuidOf = (h: string) =>
  `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;

export function voiceIdentity(userId: string, locationId: string): string {
  return `u${compactId(userId)}_l${compactId(locationId)}`;
}

/** The user and location of a browser's identity, as Twilio reports it (`client:<identity>` or bare). */
export function parseVoiceIdentity(
  value: string | undefined,
): { user_id: string; location_id: string } | null {
  const match = IDENTITY.exec((value ?? '').replace(/^client:/, ''));
  return match ? { user_id: uuidOf(match[1]!), location_id: uuidOf(match[2]!) } : null;
}

/**
 * The Voice SDK's access token (twilio-node `AccessToken` + `VoiceGrant`): signed with the account's API Key
 * secret, allowed to receive calls for `identity` and to place them through the location's TwiML App.
 */
export function voiceAccessToken(input: {
  accountSid: string;
  apiKeySid: string;
  apiKeySecret: string;
  twimlAppSid: string;
  identity: string;
  ttlSeconds?: number;
}): string {
  const token = new AccessToken(input.accountSid, input.apiKeySid, input.apiKeySecret, {
    identity: input.identity,
    ttl: input.ttlSeconds ?? 3600,
  });
  token.addGrant(new VoiceGrant({ incomingAllow: true, outgoingApplicationSid: input.twimlAppSid }));
  return token.toJwt();
}

const url = (publicUrl: string, path: string) => `${publicUrl.replace(/\/$/, '')}${path}`;

/**
 * An incoming call: every available browser at the location and its desk phones ring at once; the first to
 * answer takes it (`answerOnBridge` keeps the caller hearing the ring until then). Recorded in two channels
 * from the answer. When nobody answers, Twilio asks `dial-action`, which sends the caller to voicemail.
 */
export function ringTwiml(input: {
  publicUrl: string;
  clients: { identity: string; parameters?: Record<string, string> }[];
  sip?: string[];
  timeoutSeconds?: number;
}): string {
  const response = new twilio.twiml.VoiceResponse();
  const dial = response.dial({
    answerOnBridge: true,
    timeout: input.timeoutSeconds ?? RING_SECONDS,
    action: url(input.publicUrl, VOICE_PATHS.dialAction),
    method: 'POST',
    record: 'record-from-answer-dual',
    recordingStatusCallback: url(input.publicUrl, VOICE_PATHS.recording),
    recordingStatusCallbackEvent: ['completed'],
  });
  const callbacks = {
    statusCallback: url(input.publicUrl, VOICE_PATHS.status),
    statusCallbackEvent: STATUS_EVENTS.split(' ') as ('initiated' | 'ringing' | 'answered' | 'completed')[],
    statusCallbackMethod: 'POST' as const,
  };
  for (const c of input.clients) {
    const client = dial.client(callbacks);
    client.identity(c.identity);
    for (const [name, value] of Object.entries(c.parameters ?? {})) client.parameter({ name, value });
  }
  for (const address of input.sip ?? []) dial.sip(callbacks, address);
  return response.toString();
}

/** A browser's outgoing call: the customer sees the location's number, and the call is recorded from the answer. */
export function dialNumberTwiml(input: { publicUrl: string; callerId: string; number: string }): string {
  const response = new twilio.twiml.VoiceResponse();
  const dial = response.dial({
    callerId: input.callerId,
    answerOnBridge: true,
    timeout: DIAL_SECONDS,
    action: url(input.publicUrl, VOICE_PATHS.dialAction),
    record: 'record-from-answer-dual',
    recordingStatusCallback: url(input.publicUrl, VOICE_PATHS.recording),
  });
  dial.number(
    {
      statusCallback: url(input.publicUrl, VOICE_PATHS.status),
      statusCallbackEvent: STATUS_EVENTS.split(' ') as ('initiated' | 'ringing' | 'answered' | 'completed')[],
      statusCallbackMethod: 'POST',
    },
    input.number,
  );
  return response.toString();
}

/** Nobody could take the call (closed, nobody available, no answer): a greeting, then a voicemail. */
export function voicemailTwiml(input: { publicUrl: string; greeting: string; transcribe?: boolean }): string {
  const response = new twilio.twiml.VoiceResponse();
  response.say(input.greeting);
  response.record({
    maxLength: VOICEMAIL_MAX_SECONDS,
    playBeep: true,
    recordingStatusCallback: url(input.publicUrl, VOICE_PATHS.recording),
    recordingStatusCallbackEvent: ['completed'],
    ...(input.transcribe
      ? { transcribe: true, transcribeCallback: url(input.publicUrl, VOICE_PATHS.transcription) }
      : {}),
  });
  response.hangup();
  return response.toString();
}

/** Said when a dialled number cannot be called (not a phone number in the business's country, say). */
export function refuseTwiml(sentence: string): string {
  const response = new twilio.twiml.VoiceResponse();
  response.say(sentence);
  response.hangup();
  return response.toString();
}

/** The statuses a call moves through, as Twilio names them. */
export const CALL_STATUSES = [
  'queued',
  'initiated',
  'ringing',
  'in-progress',
  'completed',
  'busy',
  'no-answer',
  'failed',
  'canceled',
] as const;
export type CallStatusValue = (typeof CALL_STATUSES)[number];

const TERMINAL = new Set<CallStatusValue>(['completed', 'busy', 'no-answer', 'failed', 'canceled']);
const RANK: Record<CallStatusValue, number> = {
  queued: 0,
  initiated: 1,
  ringing: 2,
  'in-progress': 3,
  completed: 4,
  busy: 4,
  'no-answer': 4,
  failed: 4,
  canceled: 4,
};

export const isCallStatus = (value: string | undefined): value is CallStatusValue =>
  CALL_STATUSES.includes(value as CallStatusValue);

export const isFinished = (status: CallStatusValue) => TERMINAL.has(status);

/**
 * The status a call moves to when a callback reports `next`. Callbacks are separate requests and may arrive
 * in any order, so a call never moves back (ringing after in-progress is ignored), and once it has ended
 * its outcome stays.
 */
export function advanceCallStatus(current: CallStatusValue | null, next: CallStatusValue): CallStatusValue {
  if (current === null) return next;
  return RANK[next] > RANK[current] ? next : current;
}
