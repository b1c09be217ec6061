import { z } from 'zod';
import { PathId } from './ids.ts';

/**
 * Which phone a staff browser uses at its selected location (`GET /calls/phone`): the location's Twilio
 * account once calling is set up on it, else (in sandbox mode) the sandbox phone, else none and why.
 */
export const PhoneSetupQuery = z.strictObject({ location_id: PathId });
export const PhoneSetupAnswer = z.object({
  location_id: z.string(),
  provider: z.enum(['twilio', 'sandbox']).nullable(),
  /** The number customers see and call. */
  number: z.string().nullable(),
  /** The Voice SDK identity of this person at this location (Twilio only). */
  identity: z.string().nullable(),
  /** Why there is no phone, in words for the person. */
  reason: z.string().nullable(),
});
export type PhoneSetup = z.infer<typeof PhoneSetupAnswer>;

/** What one end of a sandbox call sends the other through the server: WebRTC negotiation, keys pressed, hold. */
export type PhoneSignal =
  | { kind: 'sdp'; sdp: { type: 'offer' | 'answer'; sdp: string } }
  | {
      kind: 'candidate';
      candidate: { candidate: string; sdpMid: string | null; sdpMLineIndex: number | null };
    }
  | { kind: 'dtmf'; digits: string }
  | { kind: 'hold'; on: boolean };

/** A sandbox call ringing a staff browser (or, for a staff browser's outgoing call, the simulator). */
export type PhoneRing = {
  call_sid: string;
  call_id: string;
  location_id: string;
  enquiry_id: string;
  from: string;
  to: string;
  caller_name: string | null;
};

export type PhoneAck = { ok: true; call_sid?: string } | { ok: false; message: string };

/** Sandbox calls over the app's socket: the server → browser half. */
export type PhoneServerEvents = {
  /** A customer (the simulator) rings this person's available browser. */
  'phone.ring': (ring: PhoneRing) => void;
  /** Stop ringing: someone else answered, the caller hung up, or nobody answered in time. */
  'phone.stop': (event: {
    call_sid: string;
    reason: 'answered' | 'cancelled' | 'timeout' | 'declined';
  }) => void;
  /** Both ends are on the call: the customer's end sends the WebRTC offer. */
  'phone.connected': (event: { call_sid: string; answered_by: string | null }) => void;
  'phone.signal': (event: { call_sid: string; signal: PhoneSignal }) => void;
  'phone.ended': (event: { call_sid: string; status: string }) => void;
  /** The simulator: the staff member handed the call to a teammate; it connects again when they answer. */
  'phone.transfer': (event: { call_sid: string }) => void;
  /** The simulator: a staff browser calls the customer it plays. */
  'sandbox.ring': (ring: PhoneRing) => void;
  /** The simulator: nobody answered, so the caller leaves a message after the greeting. */
  'sandbox.voicemail': (event: { call_sid: string; greeting: string }) => void;
};

/** Sandbox calls over the app's socket: the browser → server half; each answers through its ack. */
export type PhoneClientEvents = {
  /** The simulator rings a location as a customer. */
  'sandbox.call': (
    /** `to`: the location's own number (the default) or one of its tracking numbers. */
    input: { location_id: string; from: string; to?: string },
    ack: (result: PhoneAck) => void,
  ) => void;
  /** The simulator listens for the staff's outgoing calls. */
  'sandbox.listen': (ack: (result: PhoneAck) => void) => void;
  /** A staff browser says it can be rung (its sandbox phone registered) or not. */
  'phone.register': (input: { location_id: string; on: boolean }, ack: (result: PhoneAck) => void) => void;
  /** A staff browser calls a number from the location (sandbox phone). */
  'phone.dial': (
    input: { location_id: string; to: string; enquiry_id?: string },
    ack: (result: PhoneAck) => void,
  ) => void;
  'phone.answer': (input: { call_sid: string }, ack: (result: PhoneAck) => void) => void;
  'phone.decline': (input: { call_sid: string }) => void;
  'phone.hangup': (input: { call_sid: string }) => void;
  'phone.signal': (input: { call_sid: string; signal: PhoneSignal }) => void;
};
